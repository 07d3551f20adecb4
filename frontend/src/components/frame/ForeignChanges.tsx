import { useCallback, useEffect, useState } from "react";
import { useApi, type ForeignChange } from "../../api";
import { Modal } from "./Modal";
import "./frame.css";

/** What each kind of change means, in the person's words. */
const WHAT: Record<string, string> = {
  changed: "was changed",
  removed: "was removed",
  added: "was added",
  unsealed: "cannot be vouched for (App's record of it is gone): until you accept it, App acts as if it held nothing, which keeps AI clients out",
};

/** What each policy file holds. */
const HOLDS: Record<string, string> = {
  "settings.json": "App's settings, among them whether AI clients need a token",
  "connections.json": "the saved connections and what AI clients may do with each",
  "mcp-tokens.json": "the AI clients' tokens and their levels",
};

/**
 * ForeignChanges shows, when the window opens, each policy file another program changed since
 * App last wrote it (issue 44): App acts on its own last version until the person accepts the
 * change or reverts it. Nothing else in the window waits for the answer.
 */
export function ForeignChanges() {
  const api = useApi();
  const [changes, setChanges] = useState<ForeignChange[]>([]);
  const [busy, setBusy] = useState("");
  const [error, setError] = useState("");
  const [closed, setClosed] = useState(false);

  const read = useCallback(
    () =>
      api.settings
        .foreignChanges()
        .then(setChanges)
        .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e))),
    [api],
  );
  useEffect(() => {
    void read();
  }, [read]);

  const decide = async (name: string, accept: boolean) => {
    setBusy(name);
    setError("");
    try {
      await (accept ? api.settings.acceptForeignChange(name) : api.settings.revertForeignChange(name));
      await read();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy("");
    }
  };

  if (closed || changes.length === 0) return null;
  return (
    <Modal title="Files changed by another program" onClose={() => setClosed(true)}>
      <p>
        Another program changed files that say what AI clients may do. Until you decide, App acts on its own last version
        of each (or, where it has none, on nothing).
      </p>
      <ul className="foreign-changes">
        {changes.map((c, i) => (
          <li key={c.name} className="foreign-changes__item">
            <p>
              <strong>{c.name}</strong> {WHAT[c.what] ?? c.what}
              {c.sealedAt && <> since App wrote it ({new Date(c.sealedAt).toLocaleString()})</>}.{" "}
              {HOLDS[c.name] && <>It holds {HOLDS[c.name]}.</>}
            </p>
            <p className="foreign-changes__path">{c.path}</p>
            <div className="foreign-changes__actions">
              <button
                type="button"
                className="btn btn--small"
                data-autofocus={i === 0 ? "" : undefined}
                disabled={busy !== "" || !c.canRevert}
                title={c.canRevert ? "" : "App has no version of its own to write back"}
                onClick={() => void decide(c.name, false)}
              >
                Revert to App's version
              </button>
              <button type="button" className="btn btn--small" disabled={busy !== ""} onClick={() => void decide(c.name, true)}>
                Accept the change
              </button>
            </div>
          </li>
        ))}
      </ul>
      {error && (
        <p className="form__error" role="alert">
          {error}
        </p>
      )}
    </Modal>
  );
}
