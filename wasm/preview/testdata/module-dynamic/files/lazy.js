export default 'lazy';
export async function more() { return import('./more.js'); }
