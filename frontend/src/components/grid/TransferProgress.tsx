import { useEffect, useState } from "react";
import { useApi, type TransferProgress } from "../../api";
import { formatCount } from "../opened/format";
import "./grid.css";

/** newTransferId names a run for its progress events and its Cancel. */
export function newTransferId(): string {
  return `t-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** useTransferProgress follows the progress events of the run named id (null until the first). */
export function useTransferProgress(id: string | null): TransferProgress | null {
  const api = useApi();
  const [progress, setProgress] = useState<TransferProgress | null>(null);
  useEffect(() => {
    setProgress(null);
    if (!id) return;
    return api.explorer.onTransferProgress((p) => {
      if (p.id === id) setProgress(p);
    });
  }, [api, id]);
  return progress;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** TransferBar is a running export's or import's bar: rows, of how many, rows a second, time left. */
export function TransferBar({ label, progress }: { label: string; progress: TransferProgress | null }) {
  const known = progress !== null && progress.total > 0;
  const pct = known ? Math.min(100, Math.round((progress.rows / progress.total) * 100)) : 0;
  return (
    <div className="progress" aria-live="polite">
      <span className="progress__label">
        <span>
          {label}
          {progress ? ` ${formatCount(progress.rows)}${known ? ` of ${formatCount(progress.total)}` : ""} rows` : "…"}
        </span>
        <span>
          {progress && progress.rate > 0 && `${formatCount(progress.rate)} rows/s`}
          {progress && progress.leftMs > 0 && ` · ${duration(progress.leftMs)} left`}
        </span>
      </span>
      <span
        className="progress__track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={known ? pct : undefined}
      >
        <span className="progress__fill" style={{ width: known ? `${pct}%` : "100%", opacity: known ? 1 : 0.35 }} />
      </span>
    </div>
  );
}

/** RunningTransfer is a running export or import: its bar and the Cancel that stops it. */
export function RunningTransfer({ label, id }: { label: string; id: string }) {
  const api = useApi();
  const progress = useTransferProgress(id);
  return (
    <>
      <TransferBar label={label} progress={progress} />
      <div className="transfer__actions">
        <button type="button" className="btn" onClick={() => void api.explorer.cancelTransfer(id)}>
          Cancel
        </button>
      </div>
    </>
  );
}
