import { useEffect, useState } from "react";
import { useApi, type AccessReport, type Role } from "../../api";
import { parseApiError } from "../../api/errors";
import "./workspace.css";

type Load = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; report: AccessReport };

/** RoleBlock is one role: its name (built-in marked) and each permission in words beside the database's own action and scope. */
function RoleBlock({ role }: { role: Role }) {
  return (
    <details className="access-role">
      <summary>
        {role.name}
        {role.builtIn && <span className="access-role__builtin"> built-in</span>} · {role.permissions.length}{" "}
        {role.permissions.length === 1 ? "permission" : "permissions"}
      </summary>
      <table className="nodes-table" aria-label={`Permissions of ${role.name}`}>
        <thead>
          <tr>
            <th scope="col">May</th>
            <th scope="col">Action</th>
            <th scope="col">On</th>
          </tr>
        </thead>
        <tbody>
          {role.permissions.map((p) => (
            <tr key={`${p.action} ${p.scope}`}>
              <td>{p.words}</td>
              <td>
                <code>{p.action}</code>
              </td>
              <td>{p.scope}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/**
 * AccessSection is the connection page's "Who you are" (issue 40, item 4): the connection's
 * own user, how it authenticates, its roles and their permissions; and, where the credential
 * may read them, the database's roles and users, read-only. The database's note says why a
 * part is not shown, or that it checks no roles.
 */
export function AccessSection({ connectionId }: { connectionId: string }) {
  const api = useApi();
  const [load, setLoad] = useState<Load>({ status: "loading" });
  useEffect(() => {
    let live = true;
    api.explorer.accessControl(connectionId).then(
      (report) => live && setLoad({ status: "ready", report }),
      (e) => live && setLoad({ status: "error", message: parseApiError(e).message }),
    );
    return () => {
      live = false;
    };
  }, [api, connectionId]);

  let body;
  switch (load.status) {
    case "loading":
      body = (
        <p role="status" className="panel__note">
          <span className="spinner" aria-hidden="true" /> Reading who the connection is…
        </p>
      );
      break;
    case "error":
      body = (
        <p role="alert" className="panel__note panel__note--error">
          Could not read who the connection is: {load.message}
        </p>
      );
      break;
    case "ready": {
      const r = load.report;
      body = (
        <>
          <p className="panel__note" aria-label="The connection's user">
            {r.user ? <>User {r.user}</> : "No user"}
            {r.auth && <> · {r.auth}</>}
            {r.groups.length > 0 && <> · groups {r.groups.join(", ")}</>}
          </p>
          {r.enforced && (
            <div aria-label="Its roles">
              {r.roles.length === 0 ? <p className="panel__note">It holds no role: it may do nothing.</p> : r.roles.map((role) => <RoleBlock key={role.name} role={role} />)}
            </div>
          )}
          {r.note && <p className="panel__note">{r.note}</p>}
          {r.rolesShown && (
            <section aria-label="The database's roles">
              <h4 className="panel__section-subtitle">The database's roles</h4>
              {r.allRoles.map((role) => (
                <RoleBlock key={role.name} role={role} />
              ))}
            </section>
          )}
          {r.usersShown && (
            <table className="nodes-table" aria-label="The database's users">
              <thead>
                <tr>
                  <th scope="col">User</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Active</th>
                  <th scope="col">Roles</th>
                </tr>
              </thead>
              <tbody>
                {r.users.map((u) => (
                  <tr key={`${u.kind} ${u.name}`}>
                    <th scope="row">{u.name}</th>
                    <td>{u.kind}</td>
                    <td>{u.active ? "yes" : "no"}</td>
                    <td>{u.roles.join(", ")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      );
      break;
    }
  }
  return (
    <section className="panel__section" aria-label="Who you are">
      <div className="panel__section-head">
        <h3 className="panel__section-title">Who you are</h3>
      </div>
      {body}
    </section>
  );
}
