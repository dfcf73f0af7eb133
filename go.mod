module github.com/teamchat/chat

go 1.26.8

require (
	github.com/alecthomas/kong v1.17.0
	github.com/golang-jwt/jwt/v5 v5.3.1
	github.com/google/go-cmp v0.7.0
	golang.org/x/crypto v0.58.0
)

require golang.org/x/sys v0.49.0 // indirect
