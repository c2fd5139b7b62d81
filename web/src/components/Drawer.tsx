import { type ReactNode, useEffect, useRef } from 'react';

/**
 * A panel over the right of the page for one record's details. Escape closes it, focus moves into
 * it when it opens and back to where it was when it closes.
 */
export function Drawer({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const panel = useRef<HTMLDivElement>(null);
  // The parent may pass a new function each render; focus moves only when the drawer opens.
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    panel.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      before?.focus();
    };
  }, []);
  return (
    <div
      className="drawer"
      role="dialog"
      aria-modal="false"
      aria-labelledby="drawer-title"
      ref={panel}
      tabIndex={-1}
    >
      <header>
        <h2 id="drawer-title" className="drawer-title">
          {title}
        </h2>
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </header>
      <div className="drawer-body">{children}</div>
    </div>
  );
}
