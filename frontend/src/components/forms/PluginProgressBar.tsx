/** sizeText is a download size for people: "5.3 MB". */
export function sizeText(n: number): string {
  if (!n || n <= 0) return "—";
  if (n < 1 << 20) return `${Math.max(1, Math.round(n / 1024))} KB`;
  return `${(n / (1 << 20)).toFixed(1)} MB`;
}

/** PluginProgressBar shows a download's progress: bytes done of total, as a bar and in words. */
export function PluginProgressBar({ label, done, total }: { label: string; done: number; total: number }) {
  const pct = total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0;
  return (
    <div className="progress">
      <div className="progress__label">
        <span>{label}</span>
        <span>
          {pct}% · {sizeText(done)} of {sizeText(total)}
        </span>
      </div>
      <div className="progress__track" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
        <div className="progress__fill" style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}
