console.log("webview placeholder");
