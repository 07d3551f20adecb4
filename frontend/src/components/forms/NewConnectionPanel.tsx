import { useEffect, useRef, useState } from "react";
import { parseApiError, useApi, type ApiError, type Connection, type ConnectionDescription, type ConnectionType, type PluginOffer } from "../../api";
import { TypeBadge } from "../connections/TypeBadge";
import { ConnectionFormPanel } from "./ConnectionFormPanel";
import { newConnectionForm } from "./formRules";
import { PluginProgressBar, sizeText } from "./PluginProgressBar";
import { ErrorLine } from "../frame/ErrorLine";
import "./forms.css";

type Step =
  | { kind: "choose"; error?: ApiError }
  | { kind: "checking"; type: string }
  | { kind: "offer"; type: string; offer: PluginOffer }
  | { kind: "installing"; type: string; offer: PluginOffer; done: number; total: number }
  | { kind: "failed"; type: string; offer: PluginOffer; error: ApiError }
  | { kind: "describing"; type: string }
  | { kind: "form"; type: string; description: ConnectionDescription };

interface Props {
  onSaved: (c: Connection) => void;
  onCancel: () => void;
}

/**
 * NewConnectionPanel is the "New connection" entry point (SPEC A.3): the connection-type
 * chooser; for a type whose driver plugin is missing, the offer of its download (name,
 * version, size, publisher) before the form opens; accepting shows the download's progress
 * and then the form; declining returns to the chooser.
 */
export function NewConnectionPanel({ onSaved, onCancel }: Props) {
  const api = useApi();
  const [step, setStep] = useState<Step>({ kind: "choose" });
  const stepRef = useRef(step);
  stepRef.current = step;
  // The types come from the plugins (the registry's and the installed ones), never a list here.
  const [types, setTypes] = useState<ConnectionType[] | null>(null);
  const [typesError, setTypesError] = useState<ApiError | null>(null);
  useEffect(() => {
    let live = true;
    api.connections.types().then(
      (t) => live && setTypes(t),
      (reason) => {
        if (!live) return;
        setTypes([]);
        setTypesError(parseApiError(reason));
      },
    );
    return () => {
      live = false;
    };
  }, [api]);

  useEffect(
    () =>
      api.plugins.onProgress((p) => {
        const s = stepRef.current;
        if (s.kind === "installing" && p.plugin === s.offer.plugin && p.connectionId === "") {
          setStep({ ...s, done: p.done, total: p.total || s.total });
        }
      }),
    [api],
  );

  // The form opens once the type's plugin has described its fields.
  const openForm = async (type: string) => {
    setStep({ kind: "describing", type });
    try {
      setStep({ kind: "form", type, description: await api.connections.describe(type) });
    } catch (reason) {
      setStep({ kind: "choose", error: parseApiError(reason) });
    }
  };

  const choose = async (type: string) => {
    setStep({ kind: "checking", type });
    try {
      const offer = await api.plugins.offer(type);
      if (offer.installed) await openForm(type);
      else setStep({ kind: "offer", type, offer });
    } catch (reason) {
      setStep({ kind: "choose", error: parseApiError(reason) });
    }
  };

  const install = async (type: string, offer: PluginOffer) => {
    setStep({ kind: "installing", type, offer, done: 0, total: offer.size });
    try {
      await api.plugins.install(offer.plugin);
    } catch (reason) {
      setStep({ kind: "failed", type, offer, error: parseApiError(reason) });
      return;
    }
    await openForm(type);
  };

  if (step.kind === "form") {
    return (
      <ConnectionFormPanel
        initial={newConnectionForm(step.type, step.description)}
        description={step.description}
        onSaved={onSaved}
        onCancel={() => setStep({ kind: "choose" })}
      />
    );
  }
  return (
    <section className="panel panel--chooser" aria-label="New connection">
      <header className="panel__head">
        <h2 className="panel__title">New connection</h2>
      </header>
      {step.kind === "choose" || step.kind === "checking" || step.kind === "describing" ? (
        <>
          <p className="panel__note">Choose the type of database.</p>
          {types === null && <p className="panel__note" aria-busy="true">Reading the plugin registry…</p>}
          {types !== null && types.length === 0 && (
            <p className="panel__note">No database types are offered: the plugin registry could not be read and no driver is installed.</p>
          )}
          <ErrorLine error={typesError} />
          <ul className="type-list" aria-label="Database types">
            {(types ?? []).map((t, i) => (
              <li key={t.name}>
                <button
                  type="button"
                  className="type-card"
                  onClick={() => void choose(t.name)}
                  disabled={step.kind !== "choose"}
                  autoFocus={i === 0}
                >
                  <TypeBadge type={t.name} />
                  <span className="type-card__text">
                    <span className="type-card__name">{t.label}</span>
                    <span className="type-card__desc">{t.summary}</span>
                  </span>
                  {step.kind !== "choose" && step.type === t.name && <span className="spinner" aria-label="Checking" />}
                </button>
              </li>
            ))}
          </ul>
          {step.kind === "choose" && step.error && (
            <ErrorLine error={step.error} />
          )}
          <div className="form-actions">
            <span className="panel__spacer" />
            <button type="button" className="btn" onClick={onCancel}>
              Cancel
            </button>
          </div>
        </>
      ) : (
        <PluginOfferCard step={step} onAccept={() => step.kind !== "installing" && void install(step.type, step.offer)} onDecline={() => setStep({ kind: "choose" })} />
      )}
    </section>
  );
}

function PluginOfferCard({
  step,
  onAccept,
  onDecline,
}: {
  step: Extract<Step, { kind: "offer" | "installing" | "failed" }>;
  onAccept: () => void;
  onDecline: () => void;
}) {
  const { offer } = step;
  const title = offer.displayName || offer.plugin;
  return (
    <div className="offer" role="dialog" aria-label={`Download the ${title} driver`}>
      <h3 className="offer__title">The {title} driver is not installed</h3>
      <p className="offer__text">
        Connections to {title} need its driver plugin, downloaded once from the plugin registry and checked against the
        registry's signature.
      </p>
      <dl className="props offer__props">
        <div className="props__row">
          <dt>Plugin</dt>
          <dd>{title}</dd>
        </div>
        <div className="props__row">
          <dt>Version</dt>
          <dd>{offer.version || "—"}</dd>
        </div>
        <div className="props__row">
          <dt>Size</dt>
          <dd>{sizeText(offer.size)}</dd>
        </div>
        <div className="props__row">
          <dt>Publisher</dt>
          <dd>{offer.publisher || "—"}</dd>
        </div>
      </dl>
      {offer.unavailable ? (
        <ErrorLine>
          Not available for this platform: {offer.unavailable}
        </ErrorLine>
      ) : null}
      {offer.fromMirror && !offer.unavailable && (
        <p className="panel__note">From the app&apos;s own copy of the registry: the online registry could not be reached (or this build names none).</p>
      )}
      {step.kind === "installing" && <PluginProgressBar label={`Downloading ${title} ${offer.version}`} done={step.done} total={step.total} />}
      {step.kind === "failed" && (
        <ErrorLine error={step.error} />
      )}
      <div className="form-actions">
        <button type="button" className="btn" onClick={onDecline} disabled={step.kind === "installing"}>
          Back
        </button>
        <span className="panel__spacer" />
        {!offer.unavailable && (
          <button type="button" className="btn btn--primary" onClick={onAccept} disabled={step.kind === "installing"} autoFocus>
            {step.kind === "failed" ? "Try again" : `Download (${sizeText(offer.size)}) and continue`}
          </button>
        )}
      </div>
    </div>
  );
}
