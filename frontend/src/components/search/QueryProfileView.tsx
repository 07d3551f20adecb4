import type { QueryProfile } from "../../api";

/** seconds in the unit a person reads at a glance. */
function duration(s: number): string {
  if (s >= 1) return `${s.toFixed(2)} s`;
  if (s >= 1e-3) return `${(s * 1e3).toFixed(2)} ms`;
  return `${(s * 1e6).toFixed(0)} µs`;
}

/**
 * The database's own profile of a search (issue 40, item 6): a table per shard and kind of
 * search, each timed phase with a bar in proportion to the longest phase of the whole
 * profile, the other metrics (counts, methods) as the database wrote them.
 */
export function QueryProfileView({ profile }: { profile: QueryProfile }) {
  const longest = Math.max(
    0,
    ...profile.shards.flatMap((sh) => sh.searches.flatMap((se) => se.metrics.map((m) => m.seconds ?? 0))),
  );
  if (profile.shards.length === 0) {
    return <p className="panel__note">The database profiled the search but named no shard.</p>;
  }
  return (
    <section className="query-profile" aria-label="Query profile">
      <h3 className="query-profile__title">Query profile</h3>
      {profile.shards.map((sh) =>
        sh.searches.map((se) => (
          <table key={`${sh.name}/${se.kind}`} className="query-profile__table">
            <caption>
              {se.kind} search · shard {sh.name}
              {sh.node ? ` on ${sh.node}` : ""}
            </caption>
            <thead>
              <tr>
                <th scope="col">Phase</th>
                <th scope="col">Value</th>
                <th scope="col" className="query-profile__barhead">
                  <span className="visually-hidden">Share of the longest phase</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {se.metrics.map((m) => (
                <tr key={m.name}>
                  <th scope="row">{m.name.replaceAll("_", " ")}</th>
                  <td title={m.value}>{m.seconds !== undefined ? duration(m.seconds) : m.value}</td>
                  <td className="query-profile__barcell">
                    {m.seconds !== undefined && longest > 0 && (
                      <span
                        className="query-profile__bar"
                        role="img"
                        aria-label={`${Math.round((100 * m.seconds) / longest)}% of the longest phase`}
                        style={{ width: `${(100 * m.seconds) / longest}%` }}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )),
      )}
    </section>
  );
}
