package integrations

// jsonIntegration is Zulip's generic JSON formatter (zerver/webhooks/json): the payload,
// pretty-printed, in a json code block, to the topic "JSON".
var jsonIntegration = &Integration{
	Name: "json", DisplayName: "JSON formatter", ClientName: "JSON",
	format: func(r *Request) ([]Message, error) {
		v, err := decodeOrdered(r.Body)
		if err != nil {
			return nil, err
		}
		return []Message{{Topic: "JSON", Content: "```json\n" + dumps(v, 2) + "\n```"}}, nil
	},
}
