export function go() { const { location } = globalThis; return location === globalThis.location; }
