// The pyvis page in a sandboxed iframe: scripts run, but with an opaque origin (no cookies, no app DOM).
// The page opens on the answer's path; its own button shows the wider neighbourhood.
export default function CitationGraph() {
  return (
    <div className="w-full overflow-hidden rounded-lg border border-border bg-white" data-testid="citation-graph">
      <div className="flex items-center justify-between px-3 pt-2 text-xs text-muted-foreground">
        <span>
          Citation graph · {props.pathCount && props.pathCount < props.nodeCount
            ? `the answer's path: ${props.pathCount} of ${props.nodeCount} units`
            : `${props.nodeCount} units`} · hover for text, click to focus
        </span>
      </div>
      <iframe
        title="Citation graph"
        className="citation-graph-frame w-full"
        style={{ height: (props.height || 420) + 12, border: "none" }}
        sandbox="allow-scripts"
        srcDoc={props.html}
      />
    </div>
  );
}
