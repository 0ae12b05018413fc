package dev.stockade.pii.eval;

import static dev.stockade.pii.PiiType.ADDRESS;
import static dev.stockade.pii.PiiType.CREDIT_CARD;
import static dev.stockade.pii.PiiType.EMAIL;
import static dev.stockade.pii.PiiType.LOCATION;
import static dev.stockade.pii.PiiType.PERSON;
import static dev.stockade.pii.PiiType.PHONE;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Regenerates the shipped evaluation set: {@code handwritten.jsonl} and {@code handwritten-blind.jsonl} from
 * the markup in the {@code .txt} files of the same names, and {@code generated.jsonl} from templates shaped like agent traffic with a fixed
 * seed; the output is the same on every run. From the repository root:
 * {@code ./mvnw -B -q -pl pii-masking test-compile exec:java -Dexec.mainClass=dev.stockade.pii.eval.EvalSetBuilder}.
 */
public final class EvalSetBuilder {

    static final int GENERATED = 400;
    static final long SEED = 20261127L;

    private EvalSetBuilder() {
    }

    public static void main(String[] args) throws IOException {
        // from the module directory, or from the repository root where `./mvnw -pl pii-masking exec:java` runs
        Path dir = args.length > 0 ? Path.of(args[0]) : Files.isDirectory(Path.of("src/test/resources/eval"))
                ? Path.of("src/test/resources/eval") : Path.of("pii-masking/src/test/resources/eval");
        write(dir.resolve("handwritten.jsonl"), handwritten(Files.readString(dir.resolve("handwritten.txt")), "handwritten"));
        write(dir.resolve("handwritten-blind.jsonl"),
                handwritten(Files.readString(dir.resolve("handwritten-blind.txt")), "handwritten-blind"));
        write(dir.resolve("generated.jsonl"), generated());
        System.out.println("wrote handwritten.jsonl, handwritten-blind.jsonl and generated.jsonl in " + dir);
    }

    static List<EvalExample> handwritten(String source, String label) {
        List<EvalExample> out = new ArrayList<>();
        String[] header = null;
        StringBuilder body = new StringBuilder();
        for (String line : (source + "\n=== end end").split("\n", -1)) {
            if (line.startsWith("#") && header == null) {
                continue;
            }
            if (line.startsWith("=== ")) {
                if (header != null) {
                    String text = body.toString().stripTrailing();
                    out.add(Marked.parse(text).build(header[1], header[0], label));
                }
                header = line.substring(4).trim().split(" ");
                body.setLength(0);
            } else {
                body.append(line).append('\n');
            }
        }
        return out;
    }

    static List<EvalExample> generated() {
        Random random = new Random(SEED);
        EvalValues known = new EvalValues(random, false);
        EvalValues heldout = new EvalValues(random, true);
        List<EvalExample> out = new ArrayList<>();
        for (int i = 0; i < GENERATED; i++) {
            boolean held = i % 2 == 1;
            EvalValues v = held ? heldout : known;
            int template = random.nextInt(Templates.COUNT);
            Marked m = Templates.render(template, v);
            out.add(m.build(String.format("gen-%03d", i), Templates.shape(template), held ? "generated-heldout" : "generated-known"));
        }
        return out;
    }

    private static void write(Path file, List<EvalExample> examples) throws IOException {
        StringBuilder b = new StringBuilder();
        for (EvalExample e : examples) {
            b.append(EvalSet.JSON.writeValueAsString(e)).append('\n');
        }
        Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
    }

    /** The generated shapes; each mixes values to mask with values that look like them and are not. */
    static final class Templates {
        static final int COUNT = 12;

        private Templates() {
        }

        static String shape(int t) {
            return switch (t) {
                case 0, 1, 2, 3 -> "chat";
                case 4, 5 -> "email";
                case 6, 7, 8 -> "log";
                case 9, 10 -> "code";
                default -> "json";
            };
        }

        static Marked render(int t, EvalValues v) {
            String g = v.givenName();
            String f = v.familyName();
            String person = g + " " + f;
            Marked m = new Marked();
            switch (t) {
                case 0 -> m.plain("Hi, this is ").value(PERSON, person).plain(". Can you update my phone to ")
                        .value(PHONE, v.phone()).plain(" and my email to ").value(EMAIL, v.email(g, f))
                        .plain("? Ticket " + v.orderId() + ", app version " + v.version() + ".");
                case 1 -> m.plain("Please send the invoice for order " + v.orderId() + " to ").value(PERSON, person)
                        .plain(" at ").value(ADDRESS, v.address()).plain(", ").value(LOCATION, v.place()).plain(".");
                case 2 -> m.plain("My card ").value(CREDIT_CARD, v.card()).plain(" was charged twice on "
                        + v.timestamp() + " (reference " + v.uuid() + "), can you refund it?");
                case 3 -> m.plain("Schedule a call with ").value(PERSON, person).plain(" next week; they moved to ")
                        .value(LOCATION, v.place()).plain(" and asked for " + v.nextInt(60) + " minutes.");
                case 4 -> m.plain("From: ").value(PERSON, person).plain(" <").value(EMAIL, v.email(g, f))
                        .plain(">\nSubject: Re: case " + v.orderId() + "\n\nHello,\nplease ship the order to ")
                        .value(ADDRESS, v.address()).plain(", ").value(LOCATION, v.place())
                        .plain(". My phone: ").value(PHONE, v.phone()).plain(".\n\nThanks,\n").value(PERSON, g);
                case 5 -> m.plain("Dear ").value(PERSON, person).plain(",\n\nyour subscription renews on "
                        + v.timestamp().substring(0, 10) + " for $" + v.nextInt(300) + ".99. Questions? Reply to this mail.");
                case 6 -> m.plain(v.timestamp() + " INFO  api.Users - profile updated user=").value(EMAIL, v.email(g, f))
                        .plain(" phone=").value(PHONE, v.phone()).plain(" ip=" + v.ip() + " build=" + v.version());
                case 7 -> m.plain(v.timestamp() + " WARN  billing.Charge - declined card=").value(CREDIT_CARD, v.card())
                        .plain(" request=" + v.uuid() + " retry=" + v.nextInt(5) + "/5");
                case 8 -> m.plain(v.timestamp() + " DEBUG deploy - rolled out " + v.version() + " sha=" + v.hash(40)
                        + " to " + v.nextInt(40) + " pods in " + v.nextInt(900) + "ms");
                case 9 -> m.plain("customer = Customer(name=\"").value(PERSON, person).plain("\", email=\"")
                        .value(EMAIL, v.email(g, f)).plain("\")\nassert customer.id == \"" + v.uuid()
                        + "\"\nTEST_CARD = \"" + v.testCard() + "\"");
                case 10 -> m.plain("const fixture = { card: \"" + v.testCard() + "\", version: \"" + v.version()
                        + "\", id: \"" + v.uuid() + "\", sha: \"" + v.hash(64) + "\" };");
                default -> m.plain("{\"contact\": {\"name\": \"").value(PERSON, person).plain("\", \"phone\": \"")
                        .value(PHONE, v.phone()).plain("\", \"address\": \"").value(ADDRESS, v.address())
                        .plain("\", \"city\": \"").value(LOCATION, v.place()).plain("\"}, \"id\": \"" + v.uuid()
                        + "\", \"updated\": \"" + v.timestamp() + "\", \"score\": 0." + v.nextInt(1000) + "}");
            }
            return m;
        }
    }
}
