(function (window) { window.location.hash = "kept: window is a parameter"; })(window);
self.location.replace(`two.html?t=${location.hash.slice(1)}`);
