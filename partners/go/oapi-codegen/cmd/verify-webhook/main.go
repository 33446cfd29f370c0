// Verifies a signed webhook with Go's standard library: x-service-signature is
// `t=<unix>,v0=<hex>[,v0=<hex>…]`, each hex an HMAC-SHA256 of `<t>.<raw body>` under the endpoint's
// secret. Exit 0 and print the event type when it verifies (and, for an event type the contract does
// not list, that it is ignored: a receiver answers 204 and moves on); exit 1 otherwise.
//
//	verify-webhook <body file> <x-service-signature> <secret>
package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// knownEventTypes are the contract's webhooks: the event types this receiver handles. A later version
// of the service may send others.
var knownEventTypes = map[string]bool{
	"payment_session_complete":                 true,
	"payment_token_updated":                    true,
	"payment_token.updated":                    true,
	"product_catalog.item.eligibility_updated": true,
	"dispute.created":                          true,
	"dispute.updated":                          true,
	"dispute.closed":                           true,
	"dispute.evidence_submitted":               true,
}

// verifyWebhook reports whether header signs rawBody under secret, at a time within tolerance of now.
func verifyWebhook(rawBody []byte, header, secret string, now time.Time, tolerance time.Duration) bool {
	var timestamp string
	var signatures []string
	for _, part := range strings.Split(header, ",") {
		key, value, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch key {
		case "t":
			timestamp = value
		case "v0":
			signatures = append(signatures, value)
		}
	}
	seconds, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil || len(signatures) == 0 {
		return false
	}
	if age := now.Sub(time.Unix(seconds, 0)); age > tolerance || age < -tolerance {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(timestamp + "."))
	mac.Write(rawBody)
	expected := mac.Sum(nil)
	for _, signature := range signatures {
		given, err := hex.DecodeString(signature)
		if err == nil && hmac.Equal(given, expected) {
			return true
		}
	}
	return false
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: verify-webhook <body file> <x-service-signature> <secret>")
		os.Exit(2)
	}
	body, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if !verifyWebhook(body, os.Args[2], os.Args[3], time.Now(), 5*time.Minute) {
		fmt.Fprintln(os.Stderr, "signature does not verify")
		os.Exit(1)
	}
	var event struct {
		EventType string `json:"event_type"`
	}
	if err := json.Unmarshal(body, &event); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("verified %s\n", event.EventType)
	if !knownEventTypes[event.EventType] {
		fmt.Printf("ignored unknown event type %s\n", event.EventType)
	}
}
