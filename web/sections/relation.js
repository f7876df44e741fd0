export const id = "relation";
export const strings = {
  en: { title: "The linear relation" },
  zh: { title: "线性关系" },
};
export const formulas = {};
export function mount(root, app) {
  const title = document.createElement("h2");
  title.textContent = app.t("title");
  root.append(title);
  return { update() {} };
}
