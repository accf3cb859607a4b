// Chainlit (2.12) moves a new chat from / to /thread/<id> once its first message is saved, and that page mounts a
// new message box: a question typed before the move would vanish, the send button disabled over an empty box
// (bench/results/TRIED.md). What is typed is kept here and put back into the box that replaces it.
(() => {
  let kept = "";
  let box = null;
  const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value").set;
  const isBox = (node) => node instanceof HTMLTextAreaElement && node.id === "chat-input";
  document.addEventListener("input", (event) => {
    if (isBox(event.target)) kept = event.target.value;
  }, true);
  new MutationObserver(() => {
    const now = document.getElementById("chat-input");
    if (now === box) {
      // The same box, emptied without typing: the question was sent, nothing is left to put back.
      if (isBox(now) && !now.value) kept = "";
      return;
    }
    box = now;
    if (isBox(now) && kept && !now.value) {
      setValue.call(now, kept);  // the native setter and an input event: React's onChange takes the value
      now.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }).observe(document.body, { childList: true, subtree: true });
})();
