let next = Date.now();
export const uid = () => next++;
