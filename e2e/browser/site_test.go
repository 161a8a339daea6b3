package browser

func stopSite() {}
