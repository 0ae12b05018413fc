package dev.stockade.bench.pii;

import java.nio.charset.StandardCharsets;

/**
 * Text shaped like agent traffic (chat, mail, logs, code, JSON tool results) with personal data and
 * look-alikes mixed in, cut to an exact size in UTF-8 bytes. Deterministic, so runs compare.
 */
final class PiiCorpus {

    private static final String[] SNIPPETS = {
        "Hi, I'm Margaret Okafor and I need help updating my billing details. My new card is 4539 1488 0343 6467 "
            + "and you can reach me on (312) 555-0187.\n",
        "2025-01-14T08:22:31.554Z INFO  [http-nio-8080-exec-4] c.a.s.UserController - login ok user=j.doe@acme-corp.io "
            + "ip=10.20.31.44 session=5f0c2a9e build=3.11.4\n",
        "public class AddressFormatter {\n    private final String streetName;\n    public String format(Address a) "
            + "{ return a.getStreet() + \", \" + a.getCity(); }\n}\n",
        "{\"customer\": {\"name\": \"Olivia Bennett\", \"email\": \"olivia.bennett@fastmail.com\", \"phone\": "
            + "\"+1 (206) 555-0148\", \"city\": \"Seattle\"}, \"orderId\": \"ORD-77812\", \"total\": 129.5}\n",
        "Please ship the replacement parts to Hauptstraße 27, 10827 Berlin. For questions call me at +49 30 901820.\n",
        "{\"results\": [{\"id\": \"c0a8012e-5b1d-4c2e-9f3a-2b7d8e6f1a90\", \"score\": 0.9134, \"created\": "
            + "\"2025-04-05T11:22:33Z\"}]}\n",
        "The package is at 350 Fifth Avenue, New York, NY 10118; ask for Carlos at reception.\n",
        "What's the time complexity of quicksort on already sorted input, and how does introsort avoid it?\n",
        "const TEST_VISA = \"4111 1111 1111 1111\"; assert(luhn(\"4242424242424242\"));\n",
        "We're flying from Lisbon to Reykjavik via Dublin; book the hotel near the harbour.\n",
    };

    /** Text without personal data: what most of an agent's context is (code, logs, tool output, questions). */
    private static final String[] PLAIN = {
        "def merge(a, b):\n    out = []\n    while a and b:\n        out.append(a.pop(0) if a[0] < b[0] else b.pop(0))\n"
            + "    return out + a + b\n",
        "2025-02-01 13:45:12 ERROR worker-7 timeout after 30000ms calling https://api.internal.example/v2/orders "
            + "(attempt 3), retrying with backoff 2.0\n",
        "The test suite failed because the fixture expects UTC timestamps, but the container runs with TZ set to the "
            + "host's zone; set it explicitly in the Dockerfile and rerun the build.\n",
        "{\"status\": \"ok\", \"version\": \"1.24.3\", \"latency_ms\": 187, \"region\": \"us-east-1\", "
            + "\"nodes\": [\"ip-10-0-1-12\", \"ip-10-0-2-34\"]}\n",
        "SELECT id, created_at FROM orders WHERE total > 100 AND status = 'PAID' ORDER BY created_at DESC LIMIT 50;\n",
        "Refactor the handler so that validation happens before the transaction opens, and add a test for the empty "
            + "payload case that currently returns a 500 instead of a 400.\n",
        "commit 9f2c1e7b4d0a8e3f5c6b1a2d9e8f7c6b5a4d3e2f\nAuthor: ci-bot\n\n    chore: bump dependencies\n",
        "for (int i = 0; i < items.size(); i++) { total += items.get(i).price() * items.get(i).quantity(); }\n",
        "kubectl rollout status deploy/api --timeout=120s && kubectl get pods -l app=api -o wide\n",
    };

    private PiiCorpus() {
    }

    /** At least {@code bytes} UTF-8 bytes of corpus text, cut back to a character boundary near that size. */
    static String ofBytes(int bytes) {
        return ofBytes(bytes, true);
    }

    /**
     * Corpus text of {@code bytes} UTF-8 bytes: {@code dense} has a value to mask in every snippet (about one per
     * 100 bytes); otherwise one snippet in ten (the first of every ten) holds personal data and the rest is code, logs and prose.
     */
    static String ofBytes(int bytes, boolean dense) {
        StringBuilder b = new StringBuilder(bytes + 256);
        int i = 0;
        while (b.toString().getBytes(StandardCharsets.UTF_8).length < bytes) {
            if (dense) {
                b.append(SNIPPETS[i % SNIPPETS.length]);
            } else {
                b.append(i % 10 == 0 ? SNIPPETS[(i / 10) % SNIPPETS.length] : PLAIN[i % PLAIN.length]);
            }
            i++;
        }
        String s = b.toString();
        while (s.getBytes(StandardCharsets.UTF_8).length > bytes) {
            s = s.substring(0, s.length() - 1);
        }
        return s;
    }
}
