export const palette = { line: "#0ea5e9" };
export const formatTemp = (c) => `${Math.round(c)}°C`;
