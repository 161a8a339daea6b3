document.title = "app";
