package transfer

// The system bots' ids for the external tests.
var (
	NotificationBotID = notificationBotID
	WelcomeBotID      = welcomeBotID
	EmailGatewayBotID = emailGatewayBotID
)
