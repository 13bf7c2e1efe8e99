package i18n

import "strings"

// Key names one of the server's strings. Placeholders are written {name}
// and filled by T; every locale's string has the same placeholders as English.
type Key string

// The server's strings.
const (
	// E-mails (internal/mail's built-in templates).
	MailCodeSubject   Key = "mail.code.subject"
	MailCodeIntro     Key = "mail.code.intro"
	MailCodeOutro     Key = "mail.code.outro"
	MailDeviceSubject Key = "mail.device.subject"
	MailDeviceIntro   Key = "mail.device.intro"
	MailDeviceAsk     Key = "mail.device.ask"
	MailDeviceOutro   Key = "mail.device.outro"
	MailChangeSubject Key = "mail.change.subject"
	MailChangeIntro   Key = "mail.change.intro"
	MailChangeCode    Key = "mail.change.code"
	MailChangeOutro   Key = "mail.change.outro"

	// The device approval page (the mail's button too).
	ApproveButton         Key = "approve.button"
	ApproveMessage        Key = "approve.message"
	ApproveInvalidTitle   Key = "approve.invalid.title"
	ApproveInvalidMessage Key = "approve.invalid.message"
	ApproveExpiredTitle   Key = "approve.expired.title"
	ApproveExpiredMessage Key = "approve.expired.message"
	ApproveDoneTitle      Key = "approve.done.title"
	ApproveDoneMessage    Key = "approve.done.message"
	ApproveRetry          Key = "approve.retry"
	TheApp                Key = "page.theApp"
	ErrorTitle            Key = "page.errorTitle"

	// The social login popup.
	SocialLoading    Key = "social.loading"
	SocialLoggingIn  Key = "social.loggingIn"
	SocialFailed     Key = "social.failed"
	SocialClose      Key = "social.close"
	SocialOpenerGone Key = "social.openerGone"
	SocialUnreadable Key = "social.unreadable"
	SocialError      Key = "social.error"

	// latchd dev's identity provider stand-in.
	DevIDPTitle       Key = "devidp.title"
	DevIDPBannerTitle Key = "devidp.bannerTitle"
	DevIDPBanner      Key = "devidp.banner"
	DevIDPError       Key = "devidp.error"
	DevIDPHeading     Key = "devidp.heading"
	DevIDPVerified    Key = "devidp.verified"
	DevIDPUnverified  Key = "devidp.unverified"
	DevIDPNoEmail     Key = "devidp.noEmail"
	DevIDPAnother     Key = "devidp.another"
	DevIDPName        Key = "devidp.name"
	DevIDPEmail       Key = "devidp.email"
	DevIDPVerifiedBox Key = "devidp.verifiedBox"
	DevIDPCustom      Key = "devidp.custom"
	DevIDPDeny        Key = "devidp.deny"
	DevIDPReturning   Key = "devidp.returning"
	DevIDPContinue    Key = "devidp.continue"

	// latchd dev's test on-ramp checkout.
	CheckoutPayTitle        Key = "checkout.payTitle"
	CheckoutProcessingTitle Key = "checkout.processingTitle"
	CheckoutProcessing      Key = "checkout.processing"
	CheckoutCompleteTitle   Key = "checkout.completeTitle"
	CheckoutComplete        Key = "checkout.complete"
	CheckoutFailedTitle     Key = "checkout.failedTitle"
	CheckoutRetry           Key = "checkout.retry"
	CheckoutNoOrderTitle    Key = "checkout.noOrderTitle"
	CheckoutNoOrder         Key = "checkout.noOrder"
	CheckoutSummary         Key = "checkout.summary"
	CheckoutTo              Key = "checkout.to"
	CheckoutTx              Key = "checkout.tx"
	CheckoutCardLabel       Key = "checkout.cardLabel"
	CheckoutPay             Key = "checkout.pay"
	CheckoutFooter          Key = "checkout.footer"
	CheckoutUseTestCard     Key = "checkout.useTestCard"
	CheckoutDeclined        Key = "checkout.declined"
	CheckoutMethodCard      Key = "checkout.methodCard"
	CheckoutMethodACH       Key = "checkout.methodACH"
)

// english is the source catalogue: every key, and each key's placeholders.
var english = map[Key]string{
	MailCodeSubject:   "Your {project} login code: {code}",
	MailCodeIntro:     "Your login code for {project} is:",
	MailCodeOutro:     "It expires in {minutes} minutes and works once. If you did not try to log in, ignore this e-mail: nobody can log in without the code.",
	MailDeviceSubject: "Approve a new device for {project}",
	MailDeviceIntro:   "Someone is logging in to {project} with this e-mail address from a device we have not seen before.",
	MailDeviceAsk:     "If it is you, open this link and approve the device:",
	MailDeviceOutro:   "The link expires in {minutes} minutes and works once. If it is not you, ignore this e-mail: the device stays unapproved.",
	MailChangeSubject: "Confirm your new e-mail address for {project}: {code}",
	MailChangeIntro:   "A request was made to change the e-mail address of your {project} wallet to {email}.",
	MailChangeCode:    "Your confirmation code is:",
	MailChangeOutro:   "It expires in {minutes} minutes and works once. If you did not ask for this, ignore this e-mail: nothing changes without the code.",

	ApproveButton:         "Approve this device",
	ApproveMessage:        "A device asked to log in to {project} with your e-mail address. Approve it only if it is you, on the device you are using now.",
	ApproveInvalidTitle:   "Link not valid",
	ApproveInvalidMessage: "This approval link is incomplete. Open the link from the e-mail again.",
	ApproveExpiredTitle:   "Link expired",
	ApproveExpiredMessage: "This link has expired or was already used. Start the login again to get a new one.",
	ApproveDoneTitle:      "Device approved",
	ApproveDoneMessage:    "Device approved. You can go back to {project}.",
	ApproveRetry:          "Try the link again in a moment.",
	TheApp:                "the app",
	ErrorTitle:            "Something went wrong",

	SocialLoading:    "Loading…",
	SocialLoggingIn:  "Logging in…",
	SocialFailed:     "Login failed",
	SocialClose:      "You can close this window.",
	SocialOpenerGone: "The window that opened this login is gone: please start again.",
	SocialUnreadable: "The provider's answer could not be read.",
	SocialError:      "Something went wrong: please start again.",

	DevIDPTitle:       "{provider} (development stand-in) · latchd dev",
	DevIDPBannerTitle: "Development identity provider — test users only.",
	DevIDPBanner:      "This page is latchd dev standing in for {provider}, which has no credentials configured. It is not {provider}: nobody's real account is used, and latchd serve never offers it.",
	DevIDPError:       "This request cannot be answered: {error}.",
	DevIDPHeading:     "Log in to {provider} as a test user",
	DevIDPVerified:    "e-mail verified",
	DevIDPUnverified:  "e-mail not verified",
	DevIDPNoEmail:     "no e-mail",
	DevIDPAnother:     "Another test user",
	DevIDPName:        "Name",
	DevIDPEmail:       "E-mail",
	DevIDPVerifiedBox: "the provider verified this e-mail",
	DevIDPCustom:      "Log in as this test user",
	DevIDPDeny:        "Decline",
	DevIDPReturning:   "Returning to latchd (development stand-in)",
	DevIDPContinue:    "Continue",

	CheckoutPayTitle:        "Pay with a test card",
	CheckoutProcessingTitle: "Payment in progress",
	CheckoutProcessing:      "The dev chain is sending the asset.",
	CheckoutCompleteTitle:   "Payment complete",
	CheckoutComplete:        "{amount} {asset} were sent to your address. You can close this window.",
	CheckoutFailedTitle:     "Payment failed",
	CheckoutRetry:           "Try again in a moment.",
	CheckoutNoOrderTitle:    "No such order",
	CheckoutNoOrder:         "This checkout link is not valid. Start the purchase again from the widget.",
	CheckoutSummary:         "Buy {amount} {asset} for {price} {currency} ({method})",
	CheckoutTo:              "To {address} on {network}",
	CheckoutTx:              "Transaction {hash}",
	CheckoutCardLabel:       "Card number (test card 4242 4242 4242 4242; 4000 0000 0000 0002 is declined)",
	CheckoutPay:             "Pay {price} {currency}",
	CheckoutFooter:          "latchd dev's test on-ramp: no money moves; the dev chain's faucet sends the asset.",
	CheckoutUseTestCard:     "Use the test card 4242 4242 4242 4242",
	CheckoutDeclined:        "Your card was declined",
	CheckoutMethodCard:      "card",
	CheckoutMethodACH:       "ACH bank account",
}

// catalogues holds every locale's strings; translations.go fills in all but English.
var catalogues = map[string]map[Key]string{"en": english}

// T is key's string in locale (English when the locale or the key has none),
// its {name} placeholders replaced from params, given as name, value pairs.
func T(locale string, key Key, params ...string) string {
	s, ok := catalogues[locale][key]
	if !ok {
		s = english[key]
	}
	if len(params) == 0 {
		return s
	}
	pairs := make([]string, 0, len(params))
	for i := 0; i+1 < len(params); i += 2 {
		pairs = append(pairs, "{"+params[i]+"}", params[i+1])
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

// Printer is T bound to one locale, for templates and page views.
type Printer string

// For returns the printer of locale (matched).
func For(locale string) Printer { return Printer(Match(locale)) }

// Locale is the printer's locale.
func (p Printer) Locale() string { return string(p) }

// Dir is the printer's writing direction.
func (p Printer) Dir() string { return Dir(string(p)) }

// T is key's string in the printer's locale; see the package function T.
func (p Printer) T(key Key, params ...string) string { return T(string(p), key, params...) }
