package fidelity

import (
	"github.com/chromedp/chromedp"
)

func navigate(url string) chromedp.Action[chromedp.Void] { return chromedp.Navigate(url) }
