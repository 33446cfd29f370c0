// Verifies a signed webhook with System.Security.Cryptography: x-service-signature is
// `t=<unix>,v0=<hex>[,v0=<hex>…]`, each hex an HMAC-SHA256 of `<t>.<raw body>` under the endpoint's
// secret. Exit 0 and print the event type when it verifies (and say so when the event type is none
// of the contract's webhooks: a receiver answers 204 and moves on); exit 1 otherwise.
//   mono VerifyWebhook.exe <body file> <x-service-signature> <secret>
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Security.Cryptography;
using System.Text;
using Newtonsoft.Json.Linq;

public static class VerifyWebhook
{
    const long ToleranceSeconds = 300;

    /// <summary>The event types of the contract's webhooks.</summary>
    static readonly HashSet<string> KnownEventTypes = new HashSet<string>
    {
        "payment_session_complete",
        "payment_token_updated",
        "payment_token.updated",
        "product_catalog.item.eligibility_updated",
        "dispute.created",
        "dispute.updated",
        "dispute.closed",
        "dispute.evidence_submitted",
    };

    /// <summary>
    /// Null when one of the header's v0 signatures is the HMAC of `t.rawBody` and t is within the
    /// tolerance (past or future); otherwise why not.
    /// </summary>
    public static string Check(byte[] rawBody, string header, string secret, long nowSeconds)
    {
        string t = null;
        var signatures = new List<string>();
        foreach (string part in header.Split(','))
        {
            string[] entry = part.Trim().Split(new[] { '=' }, 2);
            if (entry.Length != 2) continue;
            if (entry[0] == "t") t = entry[1];
            else if (entry[0] == "v0") signatures.Add(entry[1]);
        }
        long timestamp;
        if (t == null || t.Length > 18 || !long.TryParse(t, NumberStyles.None, CultureInfo.InvariantCulture, out timestamp))
            return "the header has no t=<unix seconds> entry";
        if (signatures.Count == 0) return "the header has no v0 signature";
        if (timestamp < nowSeconds - ToleranceSeconds) return "the timestamp is " + (nowSeconds - timestamp) + " s old, beyond the " + ToleranceSeconds + " s tolerance (a replay?)";
        if (timestamp > nowSeconds + ToleranceSeconds) return "the timestamp is " + (timestamp - nowSeconds) + " s in the future, beyond the " + ToleranceSeconds + " s tolerance (check this clock)";

        byte[] expected;
        using (var hmac = new HMACSHA256(Encoding.UTF8.GetBytes(secret)))
        {
            byte[] prefix = Encoding.UTF8.GetBytes(t + ".");
            hmac.TransformBlock(prefix, 0, prefix.Length, null, 0);
            hmac.TransformFinalBlock(rawBody, 0, rawBody.Length);
            expected = hmac.Hash;
        }
        foreach (string hex in signatures)
        {
            byte[] given = FromHex(hex);
            if (given != null && FixedTimeEquals(given, expected)) return null;
        }
        return "no v0 signature matches (wrong secret, or a changed body)";
    }

    public static int Main(string[] args)
    {
        byte[] body = File.ReadAllBytes(args[0]);
        string header = args.Length > 1 ? args[1] : "";
        string secret = args.Length > 2 ? args[2] : "";
        if (secret != secret.Trim()) Console.Error.WriteLine("note: the secret has leading or trailing whitespace");
        string problem = Check(body, header, secret, DateTimeOffset.UtcNow.ToUnixTimeSeconds());
        if (problem != null)
        {
            Console.Error.WriteLine("signature does not verify: " + problem);
            return 1;
        }
        // Only now is the body trusted: parse it (Newtonsoft.Json, as the client does).
        string eventType = (string)JObject.Parse(Encoding.UTF8.GetString(body))["event_type"];
        Console.WriteLine("verified " + eventType);
        if (!KnownEventTypes.Contains(eventType ?? ""))
            Console.WriteLine("ignored unknown event type " + eventType);
        return 0;
    }

    /// <summary>Lower- or upper-case hex to bytes; null when it is not hex.</summary>
    static byte[] FromHex(string hex)
    {
        if (hex.Length % 2 != 0) return null;
        var bytes = new byte[hex.Length / 2];
        for (int i = 0; i < bytes.Length; i++)
        {
            if (!byte.TryParse(hex.Substring(2 * i, 2), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out bytes[i])) return null;
        }
        return bytes;
    }

    /// <summary>
    /// Compares in time that depends on the length only (CryptographicOperations.FixedTimeEquals is
    /// .NET Core 2.1 and later; Mono's class library does not have it).
    /// </summary>
    static bool FixedTimeEquals(byte[] a, byte[] b)
    {
        if (a.Length != b.Length) return false;
        int difference = 0;
        for (int i = 0; i < a.Length; i++) difference |= a[i] ^ b[i];
        return difference == 0;
    }
}
