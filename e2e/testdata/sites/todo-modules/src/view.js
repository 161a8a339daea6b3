const escape = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function render(list, todos) {
  list.innerHTML = todos
    .map((t) => `<li class="${t.done ? "done" : ""}"><label><input type="checkbox" data-id="${t.id}" ${t.done ? "checked" : ""}> <span>${escape(t.title)}</span></label></li>`)
    .join("");
}
