// The pyvis page in a sandboxed iframe: scripts run, but with an opaque origin (no cookies, no app DOM).
// The page opens on the answer's path; its own button shows the wider neighbourhood. A node clicked in the
// frame is posted up here and handed to this answer's cards, which open its source.
import { useEffect, useRef } from "react";

export default function CitationGraph() {
  const frame = useRef(null);
  useEffect(() => {
    const onMessage = (event) => {
      const data = event.data;
      if (!frame.current || event.source !== frame.current.contentWindow) return;
      if (!data || data.citewalk !== "source" || typeof data.unit !== "string") return;
      window.dispatchEvent(new CustomEvent("citewalk:source", { detail: { answerId: props.answerId, unitId: data.unit } }));
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  });
  return (
    <div className="w-full overflow-hidden rounded-lg border border-border bg-white" data-testid="citation-graph">
      <div className="flex items-center justify-between px-3 pt-2 text-xs text-muted-foreground">
        <span>
          Citation graph · {props.pathCount && props.pathCount < props.nodeCount
            ? `the answer's path: ${props.pathCount} of ${props.nodeCount} units`
            : `${props.nodeCount} units`} · hover for text, click to see the source
        </span>
      </div>
      <iframe
        ref={frame}
        title="Citation graph"
        className="citation-graph-frame w-full"
        style={{ height: (props.height || 420) + 12, border: "none" }}
        sandbox="allow-scripts"
        srcDoc={props.html}
      />
    </div>
  );
}
