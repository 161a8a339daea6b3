export function confirmClear(count) {
  return count === 0 || window.confirm(`Remove ${count} finished task(s)?`);
}
