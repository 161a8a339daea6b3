(function () {
  var canvas = document.getElementById("game");
  var ctx = canvas.getContext("2d");
  var shipImg = document.getElementById("ship-sprite");
  var rockImg = document.getElementById("rock-sprite");
  var ship = { x: 240, y: 280, speed: 3 };
  var rocks = [];
  var score = 0;
  var best = Number(localStorage.getItem("best") || 0);
  document.getElementById("best").textContent = best;

  function spawn() {
    rocks.push({ x: Math.random() * (canvas.width - 16), y: -16, vy: 1 + Math.random() * 2 });
  }

  function hit(a, b) {
    return Math.abs(a.x - b.x) < 12 && Math.abs(a.y - b.y) < 12;
  }

  function reset() {
    if (score > best) { best = score; localStorage.setItem("best", String(best)); }
    document.getElementById("best").textContent = best;
    rocks = []; score = 0; ship.x = 240;
  }

  function frame() {
    if (keys.ArrowLeft) ship.x = Math.max(0, ship.x - ship.speed);
    if (keys.ArrowRight) ship.x = Math.min(canvas.width - 16, ship.x + ship.speed);
    if (Math.random() < 0.04) spawn();
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    for (var i = rocks.length - 1; i >= 0; i--) {
      var r = rocks[i];
      r.y += r.vy;
      if (r.y > canvas.height) { rocks.splice(i, 1); score++; continue; }
      if (hit(r, ship)) { reset(); break; }
      ctx.drawImage(rockImg, r.x, r.y);
    }
    ctx.drawImage(shipImg, ship.x, ship.y);
    document.getElementById("score").textContent = score;
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);
})();
