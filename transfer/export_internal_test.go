package transfer

// NotificationBotID is notificationBotID for the external tests.
var NotificationBotID = notificationBotID
