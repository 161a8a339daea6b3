import { forecastFor } from "./data/forecast.js";
import { drawChart } from "./widgets/chart%20card.js";
import { formatTemp } from "./widgets/format.js";

export function mount(root, select) {
  const template = document.querySelector("#card-template");
  const show = async () => {
    root.replaceChildren();
    for (const day of await forecastFor(select.value)) {
      const card = template.content.firstElementChild.cloneNode(true);
      card.querySelector("h2").textContent = day.label;
      card.querySelector(".temp").textContent = formatTemp(day.high) + " / " + formatTemp(day.low);
      drawChart(card.querySelector("canvas"), day.hourly);
      root.append(card);
    }
  };
  select.addEventListener("change", show);
  show();
}
