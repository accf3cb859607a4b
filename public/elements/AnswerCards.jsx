// One card per rule the answer relies on, then the reasoning chain, then Export. A card (or a node of the
// answer's citation graph) opens "See the source": the provision in its document, the quoted words marked.
// Every text is rendered by React as text, never as HTML.
import { useEffect, useRef, useState } from "react";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "@/components/ui/sheet";

const NEIGHBOURS = 3;
const WHOLE_DOCUMENT = 2000;
const SOURCES_FRESH_MS = 10 * 60 * 1000;
// Chainlit moves a new chat from / to /thread/<id> once its first message is saved, and mounts every message's
// element again there (bench/results/TRIED.md): a source opened before the move would close under
// its reader. Where the panel stands is kept in the tab's session storage, per answer, for the element that follows.
const PANEL_KEY = "citewalk:source-panel:";

function keptPanel(answerId) {
  try {
    const kept = answerId ? JSON.parse(sessionStorage.getItem(PANEL_KEY + answerId) || "null") : null;
    const ids = (list) => Array.isArray(list) && list.every((id) => typeof id === "string");
    return kept && typeof kept.unitId === "string" && ids(kept.trail)
      ? { unitId: kept.unitId, trail: kept.trail, whole: kept.whole === true } : null;
  } catch {
    return null;  // storage refused (a private window's quota) or not ours: the panel opens closed
  }
}

function keepPanel(answerId, panel) {
  if (!answerId) return;
  try {
    if (panel) sessionStorage.setItem(PANEL_KEY + answerId, JSON.stringify(panel));
    else sessionStorage.removeItem(PANEL_KEY + answerId);
  } catch {
    // storage refused: the panel still works, it only closes if Chainlit mounts the answer again
  }
}

function quotesOf(cards) {
  return cards.flatMap((card) => card.claims.map((claim) => ({
    text: claim.text, span: claim.span || null, unit_id: claim.unit_id || card.unit_id,
  })));
}

function History({ history }) {
  if (!history) return null;
  return (
    <div className={"cw-history" + (history.repealed ? " repealed" : "")} data-testid="history"
         style={{ borderLeft: "3px solid " + (history.repealed ? "#c9514b" : "#d89b2b"), padding: "4px 10px",
                  margin: "6px 0", background: history.repealed ? "rgba(201,81,75,0.08)" : "rgba(216,155,43,0.08)" }}>
      {history.headline ? <div className="cw-status text-sm font-semibold">{history.headline}</div> : null}
      {history.events.length ? (
        <ul className="text-xs" style={{ paddingLeft: "1.1rem", listStyle: "disc" }}>
          {history.events.map((event, i) => <li key={i} className="cw-event">{event.line}</li>)}
        </ul>
      ) : null}
      {history.current_text ? (
        <div className="mt-1 text-xs">
          <div className="text-muted-foreground">Current text ({history.latest_label || history.latest_id})</div>
          <div className="cw-current whitespace-pre-wrap rounded-md bg-muted p-2">{history.current_text}</div>
        </div>
      ) : null}
    </div>
  );
}

function Links({ title, items, open, prefetch, testid }) {
  return (
    <div className="mt-3" data-testid={testid}>
      <div className="text-xs uppercase text-muted-foreground" style={{ letterSpacing: "0.05em" }}>{title} ({items.length})</div>
      {items.length ? (
        <ul className="text-sm" style={{ paddingLeft: "1.1rem", listStyle: "disc" }}>
          {items.map((item) => (
            <li key={item.relation + item.id}>
              <span className="text-muted-foreground">{item.relation} </span>
              <button type="button" className="cw-link text-primary" style={{ textDecoration: "underline" }}
                      data-unit-id={item.id} onPointerEnter={() => prefetch(item.id)} onClick={() => open(item.id)}>{item.label}</button>
              {item.document_title ? <span className="ml-1 text-xs text-muted-foreground">{item.document_title}</span> : null}
            </li>
          ))}
        </ul>
      ) : <div className="text-xs text-muted-foreground">none</div>}
    </div>
  );
}

function Where({ view }) {
  const where = view.location;
  const parts = [];
  if (where.file_name) parts.push(<span key="f">{where.file_name}</span>);
  if (where.line) parts.push(<span key="l" className="cw-lines">{where.line}</span>);
  if (where.page) parts.push(<span key="p" className="cw-page">page {where.page}</span>);
  if (where.url) parts.push(<a key="u" className="cw-published text-primary" href={where.url} target="_blank" rel="noopener noreferrer" style={{ textDecoration: "underline" }}>published page</a>);
  if (view.ingested_at) parts.push(<span key="i">ingested {view.ingested_at.slice(0, 10)}</span>);
  return <div className="flex flex-wrap text-xs text-muted-foreground" style={{ columnGap: "0.75rem" }}>{parts}</div>;
}

// A PDF source's page as printed (rendered by the app from the stored file), the provision shaded and the quoted
// words on it marked.
function PdfPage({ view, quotes }) {
  const where = view.location;
  if (!where.page_image || !where.page) return null;
  const params = new URLSearchParams({ unit: view.unit_id });
  quotes.filter((q) => q.unit_id === view.unit_id).slice(0, 20).forEach((q) => params.append("quote", q.text.slice(0, 2000)));
  return (
    <details className="cw-pdf-page mt-2" data-testid="pdf-page" open>
      <summary className="cursor-pointer text-xs text-muted-foreground">Page {where.page} of {where.file_name} as printed</summary>
      <img src={"/api/source/page?" + params.toString()} alt={"Page " + where.page + " of " + where.file_name}
           loading="lazy" style={{ width: "100%", border: "1px solid hsl(var(--border))", marginTop: "4px" }} />
    </details>
  );
}

function SourceView({ view, quotes, open, prefetch, whole, showWhole }) {
  const targetRef = useRef(null);
  useEffect(() => {
    if (targetRef.current) targetRef.current.scrollIntoView({ block: "center" });
  }, [view]);
  return (
    <div data-testid="source-view" data-unit-id={view.unit_id} className="flex flex-col gap-1">
      {view.headings.length ? (
        <div className="cw-headings text-xs text-muted-foreground">{view.headings.join(" › ")}</div>
      ) : null}
      <Where view={view} />
      <History history={view.history} />
      <div className="cw-document mt-1 rounded-md border border-border px-3 py-1"
           style={{ maxHeight: "55vh", overflowY: "auto" }}>
        {view.hidden_above && !whole ? (
          <button type="button" className="cw-more text-xs text-primary" onClick={showWhole}>
            {view.hidden_above} units above · show the whole document
          </button>
        ) : null}
        {view.units.map((unit) => (
          <div key={unit.id} ref={unit.target ? targetRef : null} data-unit-id={unit.id}
               className={"cw-unit py-1" + (unit.target ? " target" : "")}
               style={unit.target ? { borderLeft: "3px solid hsl(var(--primary))", paddingLeft: "0.5rem",
                                      background: "hsl(var(--muted))" } : { borderBottom: "1px dashed hsl(var(--border))" }}>
            <div className="text-xs font-semibold text-muted-foreground">{unit.label}{unit.title && !unit.label.includes(unit.title) ? " " + unit.title : ""}</div>
            <div className="cw-text whitespace-pre-wrap text-sm" style={{ lineHeight: 1.6 }}>
              {unit.segments.map((seg, i) => seg.mark
                ? <mark key={i} className="cw-mark" style={{ background: "#ffe58a", color: "#1f2630" }}>{seg.text}</mark>
                : <span key={i}>{seg.text}</span>)}
            </div>
          </div>
        ))}
        {view.hidden_below && !whole ? (
          <button type="button" className="cw-more text-xs text-primary" onClick={showWhole}>
            {view.hidden_below} units below · show the whole document
          </button>
        ) : null}
      </div>
      <PdfPage view={view} quotes={quotes} />
      <Links title="Cites" items={view.cites} open={open} prefetch={prefetch} testid="cites" />
      <Links title="Cited by" items={view.cited_by} open={open} prefetch={prefetch} testid="cited-by" />
    </div>
  );
}

export default function AnswerCards() {
  const cards = props.cards || [];
  const segments = props.chain || [];
  const kept = useRef(undefined);
  if (kept.current === undefined) kept.current = keptPanel(props.answerId);
  const [unitId, setUnitId] = useState(kept.current ? kept.current.unitId : null);
  const [trail, setTrail] = useState(kept.current ? kept.current.trail : []);
  const [whole, setWhole] = useState(kept.current ? kept.current.whole : false);
  const [view, setView] = useState(null);
  const [problem, setProblem] = useState(null);

  // One request per unit (and per whole document), kept for the life of the element; a card or link under the
  // pointer is fetched before the click lands. The cards' own views come with the answer (props.sources): while
  // fresh they are shown in the click's own render, with no request to wait for, and read again behind it, the
  // view replaced if the corpus changed since the answer.
  const cache = useRef(null);
  const ready = useRef(null);
  const unchecked = useRef(null);
  const shownKey = useRef(null);
  if (cache.current === null) {
    cache.current = new Map();
    ready.current = new Map();
    unchecked.current = new Set();
    const age = Date.now() - (props.sourcesReadAt || 0);
    if (props.sources && age >= -SOURCES_FRESH_MS && age < SOURCES_FRESH_MS) {
      for (const [id, source] of Object.entries(props.sources)) {
        cache.current.set("unit|" + id, Promise.resolve(source));
        ready.current.set("unit|" + id, source);
        unchecked.current.add("unit|" + id);
      }
    }
  }
  const request = (key, id, wholeDocument) => {
    const span = wholeDocument ? WHOLE_DOCUMENT : NEIGHBOURS;
    const pending = fetch("/api/source", {
      method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ unit_id: id, quotes: quotesOf(cards), above: span, below: span }),
    }).then((r) => r.ok ? r.json() : r.json().then((e) => { throw new Error(e.detail || r.statusText); }, () => { throw new Error(r.statusText); }));
    pending.then((source) => { ready.current.set(key, source); cache.current.set(key, pending); }, () => null);
    return pending;
  };
  const fetchSource = (id, wholeDocument) => {
    const key = (wholeDocument ? "whole|" : "unit|") + id;
    let pending = cache.current.get(key);
    if (!pending) {
      pending = request(key, id, wholeDocument);
      cache.current.set(key, pending);
      pending.catch(() => cache.current.delete(key));
    }
    return pending;
  };
  const prefetch = (id) => { fetchSource(id, false).catch(() => null); };
  const load = (id, wholeDocument) => {
    setProblem(null);
    const key = (wholeDocument ? "whole|" : "unit|") + id;
    shownKey.current = key;
    const atHand = ready.current.get(key);
    if (atHand) {
      setView(atHand);
      if (unchecked.current.delete(key)) {
        const sent = JSON.stringify(atHand);
        request(key, id, wholeDocument).then(
          (fresh) => { if (JSON.stringify(fresh) !== sent) setView((shown) => (shown === atHand ? fresh : shown)); },
          (e) => { if (shownKey.current === key) setProblem(String(e.message || e)); });
      }
      return;
    }
    fetchSource(id, wholeDocument).then(setView, (e) => { setView(null); setProblem(String(e.message || e)); });
  };
  const open = (id) => {
    if (unitId && id !== unitId) setTrail([...trail, unitId]);
    setUnitId(id); setWhole(false); load(id, false);
  };
  const back = () => {
    const previous = trail[trail.length - 1];
    setTrail(trail.slice(0, -1)); setUnitId(previous); setWhole(false); load(previous, false);
  };
  const close = () => { shownKey.current = null; setUnitId(null); setView(null); setTrail([]); setProblem(null); };

  useEffect(() => {
    keepPanel(props.answerId, unitId === null ? null : { unitId, trail, whole });
  }, [unitId, trail, whole]);
  useEffect(() => {
    if (kept.current) load(kept.current.unitId, kept.current.whole);
  }, []);

  // A node clicked in this answer's graph (a sandboxed frame) asks, through the graph element, for its source.
  useEffect(() => {
    const onGraph = (event) => {
      if (event.detail && event.detail.answerId === props.answerId && typeof event.detail.unitId === "string") {
        setTrail([]); setUnitId(event.detail.unitId); setWhole(false); load(event.detail.unitId, false);
      }
    };
    window.addEventListener("citewalk:source", onGraph);
    return () => window.removeEventListener("citewalk:source", onGraph);
  });

  const exportHref = (format) => `/api/answers/${encodeURIComponent(props.answerId)}/export?format=${format}`;
  return (
    <div className="flex flex-col gap-2 w-full" data-testid="answer-cards">
      {cards.map((card) => (
        <div key={card.unit_id} className="rule-card rounded-lg border border-border bg-card px-4 py-3"
             data-unit-id={card.unit_id} data-label={card.label}
             style={{ cursor: "pointer" }} title="See the source" onPointerEnter={() => prefetch(card.unit_id)}
             onClick={(e) => { if (!e.target.closest("summary, details, a, button")) open(card.unit_id); }}>
          <div className="flex flex-wrap" style={{ alignItems: "baseline", columnGap: "0.75rem" }}>
            <span className="rule-label font-semibold text-primary">{card.label}</span>
            <span className="text-xs text-muted-foreground">{card.document_title}</span>
            {card.history && card.history.headline ? (
              <span className={"cw-badge text-xs font-semibold"} style={{ color: card.history.repealed ? "#c9514b" : "#b07a1c" }}>
                {card.history.repealed ? "Repealed" : card.history.current_text ? "Superseded" : "Amended"}
              </span>
            ) : null}
          </div>
          <ul className="mt-1 list-disc text-sm" style={{ paddingLeft: "1.1rem" }}>
            {card.claims.map((claim, i) => (
              <li key={i}>
                <span className="claim-text">{claim.text}</span>
                {claim.paragraph ? <span className="ml-1 text-xs text-muted-foreground">{claim.paragraph}</span> : null}
              </li>
            ))}
          </ul>
          <History history={card.history} />
          {card.text ? (
            <details className="mt-1">
              <summary className="cursor-pointer text-xs text-muted-foreground">Full provision text</summary>
              <div className="mt-1 whitespace-pre-wrap rounded-md bg-muted p-2 text-xs" style={{ lineHeight: 1.6 }}>{card.text}</div>
            </details>
          ) : null}
          <button type="button" className="see-source mt-1 text-xs text-primary" style={{ textDecoration: "underline" }}
                  onClick={() => open(card.unit_id)}>See the source</button>
        </div>
      ))}
      {segments.length ? (
        <div className="chain-line mt-1 text-sm" data-testid="chain-line">
          <div className="text-xs uppercase text-muted-foreground" style={{ letterSpacing: "0.05em" }}>Reasoning chain</div>
          {segments.map((segment, s) => (
            <div key={s}>
              {segment.map((part, i) => i % 2 === 0
                ? <span key={i} className="font-medium">{part}</span>
                : <span key={i} className="mx-1 text-muted-foreground">—{part}→</span>)}
            </div>
          ))}
        </div>
      ) : null}
      {props.answerId ? (
        <div className="flex gap-3 text-xs" data-testid="export">
          <span className="text-muted-foreground">Export for the audit file:</span>
          <a className="export-md text-primary" href={exportHref("md")} download style={{ textDecoration: "underline" }}>Markdown</a>
          <a className="export-docx text-primary" href={exportHref("docx")} download style={{ textDecoration: "underline" }}>Word (DOCX)</a>
        </div>
      ) : null}
      <Sheet open={unitId !== null} onOpenChange={(isOpen) => { if (!isOpen) close(); }}>
        <SheetContent side="right" style={{ width: "min(640px, 94vw)", maxWidth: "none", overflowY: "auto" }}
                      data-testid="source-panel">
          <SheetHeader>
            <SheetTitle>{view ? view.label : "See the source"}</SheetTitle>
            <SheetDescription>{view ? view.document_title : (problem ? "" : "Opening the provision…")}</SheetDescription>
          </SheetHeader>
          {trail.length ? (
            <button type="button" className="cw-back mt-1 text-xs text-primary" onClick={back}>← Back</button>
          ) : null}
          {problem ? <div className="cw-problem mt-2 text-sm" data-testid="source-problem">The source cannot be shown: {problem}</div> : null}
          {view && view.unit_id === unitId ? (
            <SourceView view={view} quotes={quotesOf(cards)} open={open} prefetch={prefetch} whole={whole} showWhole={() => { setWhole(true); load(unitId, true); }} />
          ) : null}
        </SheetContent>
      </Sheet>
    </div>
  );
}
