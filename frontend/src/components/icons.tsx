import type { LucideIcon } from "lucide-react";

/**
 * The window's icons are lucide's SVGs (ISC license), imported from this one place so the set
 * keeps one stroke and size (issue 24, item 5: Unicode pictographs such as ⧉ and 🗑 rendered as
 * empty boxes with the fonts a Linux desktop has). An icon is decoration: the control that
 * holds it carries the accessible name.
 */
export {
  ArrowDown,
  ArrowUp,
  Check,
  ChevronRight,
  Copy,
  Keyboard,
  Map as MapIcon,
  Moon,
  Pencil,
  Play,
  RefreshCw,
  Search,
  Settings,
  FileText,
  Sparkles,
  SquareTerminal,
  Sun,
  SunMoon,
  Table2,
  Trash2,
  X,
} from "lucide-react";

/** Icon draws one icon at the text's size, hidden from assistive technology. */
export function Icon({ icon: Glyph, size = 14, className }: { icon: LucideIcon; size?: number; className?: string }) {
  return <Glyph size={size} strokeWidth={2} aria-hidden="true" focusable="false" className={className ? `icon ${className}` : "icon"} />;
}
