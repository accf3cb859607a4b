// The permalink of one answer with a copy button; the path comes from the server, the origin from the page.
import { useState } from "react";

export default function ShareLink() {
  const url = window.location.origin + props.path;
  const [copied, setCopied] = useState(false);
  const copy = () => {
    const done = () => { setCopied(true); setTimeout(() => setCopied(false), 2000); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(done, done);
    } else {
      done();
    }
  };
  return (
    <div className="flex w-full items-center gap-2 rounded-lg border border-border bg-card px-3 py-2 text-sm" data-testid="share-link">
      <input readOnly value={url} className="share-url flex-1 bg-transparent text-sm outline-none" onFocus={(e) => e.target.select()} />
      <button type="button" onClick={copy} className="rounded-md border border-border px-2 py-1 text-xs">
        {copied ? "Copied" : "Copy"}
      </button>
      <a href={props.path} target="_blank" rel="noopener noreferrer" className="text-xs text-primary" style={{ textDecoration: "underline" }}>Open</a>
    </div>
  );
}
