(function () {
  var here = location.pathname.split("/").pop() || "index.html";
  document.querySelectorAll("nav.top a").forEach(function (a) {
    if (a.getAttribute("href").split("/").pop() === here) a.classList.add("current");
  });
})();
