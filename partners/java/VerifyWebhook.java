// Verifies a signed webhook with javax.crypto: x-service-signature is `t=<unix>,v0=<hex>[,v0=<hex>…]`,
// each hex an HMAC-SHA256 of `<t>.<raw body>` under the endpoint's secret. Exit 0 and print the
// event type when it verifies (and, for an event type the contract does not list, that it is
// ignored: a receiver answers 204 and moves on); exit 1 otherwise. Java 17 or later, no dependencies:
//   java VerifyWebhook.java <body file> <x-service-signature> <secret>
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public class VerifyWebhook {
  static final long TOLERANCE_SECONDS = 300;

  /** The contract's webhooks: the event types this receiver handles. A later version of the service may send others. */
  static final Set<String> KNOWN_EVENT_TYPES = Set.of(
      "payment_session_complete", "payment_token_updated", "payment_token.updated",
      "product_catalog.item.eligibility_updated",
      "dispute.created", "dispute.updated", "dispute.closed", "dispute.evidence_submitted");

  /** Whether one of the header's v0 signatures is the HMAC of `<t>.<rawBody>`, with t within the tolerance. */
  public static boolean verify(byte[] rawBody, String header, String secret) throws Exception {
    String t = null;
    List<String> signatures = new ArrayList<>();
    for (String part : header.split(",")) {
      String[] entry = part.trim().split("=", 2);
      if (entry.length != 2) continue;
      if (entry[0].equals("t")) t = entry[1];
      else if (entry[0].equals("v0")) signatures.add(entry[1]);
    }
    if (t == null || !t.matches("\\d{1,18}") || signatures.isEmpty()) return false;
    if (Math.abs(System.currentTimeMillis() / 1000 - Long.parseLong(t)) > TOLERANCE_SECONDS) return false;

    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    mac.update((t + ".").getBytes(StandardCharsets.UTF_8));
    byte[] expected = mac.doFinal(rawBody);
    for (String hex : signatures) {
      byte[] given;
      try {
        given = HexFormat.of().parseHex(hex);
      } catch (IllegalArgumentException notHex) {
        continue;
      }
      if (MessageDigest.isEqual(given, expected)) return true; // constant time for equal lengths
    }
    return false;
  }

  public static void main(String[] args) throws Exception {
    byte[] body = Files.readAllBytes(Path.of(args[0]));
    if (!verify(body, args.length > 1 ? args[1] : "", args.length > 2 ? args[2] : "")) {
      System.err.println("signature does not verify");
      System.exit(1);
    }
    // Only now is the body trusted: a real handler parses it with its JSON library (Jackson, …).
    Matcher type = Pattern.compile("\"event_type\"\\s*:\\s*\"([^\"]*)\"").matcher(new String(body, StandardCharsets.UTF_8));
    String eventType = type.find() ? type.group(1) : "event";
    System.out.println("verified " + eventType);
    if (!KNOWN_EVENT_TYPES.contains(eventType)) System.out.println("ignored unknown event type " + eventType);
  }
}
