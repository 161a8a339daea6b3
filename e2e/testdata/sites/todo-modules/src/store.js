import { uid } from "./lib/uid.js";

export function createStore(initial) {
  let todos = initial;
  const listeners = new Set();
  const emit = () => listeners.forEach((fn) => fn(todos));
  return {
    subscribe(fn) { listeners.add(fn); fn(todos); },
    add(title) { if (title) { todos = [...todos, { id: uid(), title, done: false }]; emit(); } },
    toggle(id) { todos = todos.map((t) => (t.id === id ? { ...t, done: !t.done } : t)); emit(); },
    clearDone() { todos = todos.filter((t) => !t.done); emit(); },
    count() { return todos.filter((t) => t.done).length; },
  };
}
