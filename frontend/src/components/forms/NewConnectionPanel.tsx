import { useEffect, useRef, useState } from "react";
import { parseApiError, useApi, type ApiError, type Connection, type PluginOffer } from "../../api";
import { TypeBadge } from "../connections/TypeBadge";
import { ConnectionFormPanel } from "./ConnectionFormPanel";
import { newConnectionForm } from "./formRules";
import { PluginProgressBar, sizeText } from "./PluginProgressBar";
import { ErrorLine } from "../layout/ErrorLine";

/** The database types the chooser offers. Each is served by a driver plugin. */
export const DATABASE_TYPES = [
  { type: "weaviate", label: "Weaviate", description: "Vector database: collections as tables, GraphQL reads and REST writes" },
] as const;

type Step =
  | { kind: "choose"; error?: ApiError }
  | { kind: "checking"; type: string }
  | { kind: "offer"; type: string; offer: PluginOffer }
  | { kind: "installing"; type: string; offer: PluginOffer; done: number; total: number }
  | { kind: "failed"; type: string; offer: PluginOffer; error: ApiError }
  | { kind: "form"; type: string };

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

  const choose = async (type: string) => {
    setStep({ kind: "checking", type });
    try {
      const offer = await api.plugins.offer(type);
      setStep(offer.installed ? { kind: "form", type } : { kind: "offer", type, offer });
    } catch (reason) {
      setStep({ kind: "choose", error: parseApiError(reason) });
    }
  };

  const install = async (type: string, offer: PluginOffer) => {
    setStep({ kind: "installing", type, offer, done: 0, total: offer.size });
    try {
      await api.plugins.install(offer.plugin);
      setStep({ kind: "form", type });
    } catch (reason) {
      setStep({ kind: "failed", type, offer, error: parseApiError(reason) });
    }
  };

  if (step.kind === "form") {
    return <ConnectionFormPanel initial={newConnectionForm(step.type)} onSaved={onSaved} onCancel={() => setStep({ kind: "choose" })} />;
  }
  return (
    <section className="panel panel--chooser" aria-label="New connection">
      <header className="panel__head">
        <h2 className="panel__title">New connection</h2>
      </header>
      {step.kind === "choose" || step.kind === "checking" ? (
        <>
          <p className="panel__note">Choose the type of database.</p>
          <ul className="type-list" aria-label="Database types">
            {DATABASE_TYPES.map((t, i) => (
              <li key={t.type}>
                <button
                  type="button"
                  className="type-card"
                  onClick={() => void choose(t.type)}
                  disabled={step.kind === "checking"}
                  autoFocus={i === 0}
                >
                  <TypeBadge type={t.type} />
                  <span className="type-card__text">
                    <span className="type-card__name">{t.label}</span>
                    <span className="type-card__desc">{t.description}</span>
                  </span>
                  {step.kind === "checking" && step.type === t.type && <span className="spinner" aria-label="Checking" />}
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
