// The page's one way to build DOM: an element with its class or properties
// and children, text replaced only when it changes, and a button. Styles come
// from the style sheet's classes; script sets a style property only where
// the value is computed (a canvas's size, a marker's place), which the CSP
// allows, as it forbids style attributes written in markup.

/**
 * Creates an element. `properties` is a class name, or an object of
 * className, text, testid and attributes.
 */
export function element(tag, properties = {}, children = []) {
  const node = document.createElement(tag);
  const entries =
    typeof properties === "string"
      ? [["className", properties]]
      : Object.entries(properties);
  for (const [key, value] of entries) {
    if (value === undefined || value === "") continue;
    if (key === "className") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "testid") node.dataset.testid = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

/**
 * Replaces a node's text only if it differs: the same text written again
 * still replaces the text node, and the page is laid out again.
 */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

export function button(text, onClick, testid) {
  const node = element("button", { type: "button", testid, text });
  node.addEventListener("click", onClick);
  return node;
}
