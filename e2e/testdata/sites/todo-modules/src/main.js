import { createStore } from "./store.js";
import { render } from "./view.js";

const store = createStore(JSON.parse(localStorage.getItem("todos") || "[]"));
const list = document.querySelector("#todo-list");

store.subscribe((todos) => {
  render(list, todos);
  document.querySelector("#remaining").textContent = String(todos.filter((t) => !t.done).length);
  localStorage.setItem("todos", JSON.stringify(todos));
});

document.querySelector("#add-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = event.target.elements.title;
  store.add(input.value.trim());
  input.value = "";
});

list.addEventListener("change", (event) => {
  if (event.target.matches("input[type=checkbox]")) {
    store.toggle(Number(event.target.dataset.id));
  }
});

document.querySelector("#clear-done").addEventListener("click", async () => {
  // Loaded on demand: the confirmation helper is only needed here.
  const { confirmClear } = await import("./lib/confirm.js");
  if (confirmClear(store.count())) store.clearDone();
});
