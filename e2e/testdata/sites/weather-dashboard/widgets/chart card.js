import { palette } from "./format.js";

export function drawChart(canvas, values) {
  const ctx = canvas.getContext("2d");
  const max = Math.max(...values), min = Math.min(...values);
  const step = canvas.width / (values.length - 1);
  ctx.strokeStyle = palette.line;
  ctx.lineWidth = 2;
  ctx.beginPath();
  values.forEach((v, i) => {
    const y = canvas.height - ((v - min) / (max - min || 1)) * (canvas.height - 10) - 5;
    i === 0 ? ctx.moveTo(0, y) : ctx.lineTo(i * step, y);
  });
  ctx.stroke();
}
