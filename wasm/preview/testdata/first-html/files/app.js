console.log("about");
