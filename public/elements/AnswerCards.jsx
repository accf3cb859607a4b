// One card per rule the answer relies on, then the reasoning chain. Text is rendered by React, never as HTML.
export default function AnswerCards() {
  const cards = props.cards || [];
  const segments = props.chain || [];
  return (
    <div className="flex flex-col gap-2 w-full" data-testid="answer-cards">
      {cards.map((card) => (
        <div key={card.unit_id} className="rule-card rounded-lg border border-border bg-card px-4 py-3"
             data-unit-id={card.unit_id} data-label={card.label}>
          <div className="flex flex-wrap" style={{ alignItems: "baseline", columnGap: "0.75rem" }}>
            <span className="rule-label font-semibold text-primary">{card.label}</span>
            <span className="text-xs text-muted-foreground">{card.document_title}</span>
          </div>
          <ul className="mt-1 list-disc text-sm" style={{ paddingLeft: "1.1rem" }}>
            {card.claims.map((claim, i) => (
              <li key={i}>
                {claim.text}
                {claim.paragraph ? <span className="ml-1 text-xs text-muted-foreground">{claim.paragraph}</span> : null}
              </li>
            ))}
          </ul>
          {card.text ? (
            <details className="mt-1">
              <summary className="cursor-pointer text-xs text-muted-foreground">Full provision text</summary>
              <div className="mt-1 whitespace-pre-wrap rounded-md bg-muted p-2 text-xs" style={{ lineHeight: 1.6 }}>{card.text}</div>
            </details>
          ) : null}
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
    </div>
  );
}
