package dev.stockade.pii.eval;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Values for generated evaluation texts. Names and places come either from the shipped gazetteers (known) or
 * from the lists held out of them (heldout), so the evaluation also measures names the engine never saw.
 */
final class EvalValues {

    private static final String[] DOMAINS = {"gmail.com", "outlook.com", "yahoo.co.uk", "proton.me", "acme-corp.io",
        "contoso.com", "fabrikam.de", "example.org", "mail.ru", "uni-heidelberg.de", "company.co.jp"};
    private static final String[] STREETS = {"Oak", "Maple", "Cedar", "Elm", "Pine", "Lincoln", "Washington",
        "Park", "Lake", "Hill", "Church", "Mill", "Sunset", "Highland", "Jefferson", "Madison", "Walnut", "Chestnut"};
    private static final String[] SUFFIXES = {"Street", "St", "Avenue", "Ave", "Road", "Rd", "Boulevard", "Blvd",
        "Lane", "Drive", "Court", "Way", "Place", "Terrace"};
    private static final String[] UNITS = {"", "", "", ", Apt 4B", ", Suite 210", " #12", ", Unit 7"};
    private static final String[] AREA = {"212", "415", "312", "617", "206", "303", "512", "646", "720", "404",
        "213", "305", "702", "919", "615"};

    private final Random random;
    private final List<String> given;
    private final List<String> family;
    private final List<String> places;

    EvalValues(Random random, boolean heldout) {
        this.random = random;
        String g = heldout ? "/eval/heldout-" : "/dev/stockade/pii/gazetteer/";
        this.given = read(g + "given-names.txt");
        this.family = read(g + "family-names.txt");
        this.places = read(g + "places.txt");
    }

    private static List<String> read(String resource) {
        InputStream in = EvalValues.class.getResourceAsStream(resource);
        if (in == null) {
            throw new IllegalStateException("missing " + resource);
        }
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            return r.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String pick(List<String> from) {
        return from.get(random.nextInt(from.size()));
    }

    String pick(String... from) {
        return from[random.nextInt(from.length)];
    }

    String givenName() {
        return pick(given);
    }

    String familyName() {
        return pick(family);
    }

    String place() {
        return pick(places);
    }

    String email(String given, String family) {
        String local = switch (random.nextInt(3)) {
            case 0 -> given + "." + family;
            case 1 -> given.charAt(0) + family;
            default -> given + random.nextInt(100);
        };
        String ascii = Normalizer.normalize(local, Normalizer.Form.NFD).replaceAll("[^A-Za-z0-9.]", "");
        return ascii.toLowerCase(Locale.ROOT) + "@" + pick(DOMAINS);
    }

    String phone() {
        String exchange = Integer.toString(200 + random.nextInt(700));
        if (exchange.equals("555") || exchange.endsWith("11")) {
            exchange = "486";
        }
        String a = pick(AREA);
        String line = String.format("%04d", random.nextInt(10000));
        return switch (random.nextInt(9)) {
            case 0 -> "(" + a + ") " + exchange + "-" + line;
            case 1 -> a + "-" + exchange + "-" + line;
            case 2 -> a + "." + exchange + "." + line;
            case 3 -> "+1 " + a + " " + exchange + " " + line;
            case 4 -> "+44 20 7946 0" + String.format("%03d", random.nextInt(1000));
            case 5 -> "+49 30 " + (1000000 + random.nextInt(8999999));
            case 6 -> "+33 1 " + String.format("%02d %02d %02d %02d", random.nextInt(90) + 10, random.nextInt(100),
                    random.nextInt(100), random.nextInt(100));
            case 7 -> "+44 7911 " + String.format("%06d", random.nextInt(1000000));
            default -> "+91 98" + (100 + random.nextInt(900)) + " " + (10000 + random.nextInt(90000));
        };
    }

    String card() {
        String[] prefixes = {"4", "4", "51", "53", "55", "2221", "34", "37", "6011", "65", "3530"};
        String prefix = pick(prefixes);
        int length = prefix.startsWith("3") && prefix.length() == 2 ? 15 : 16;
        StringBuilder d = new StringBuilder(prefix);
        while (d.length() < length - 1) {
            d.append(random.nextInt(10));
        }
        d.append(checkDigit(d.toString()));
        String digits = d.toString();
        String sep = pick(" ", "-", "");
        if (length == 15) {
            return digits.substring(0, 4) + sep + digits.substring(4, 10) + sep + digits.substring(10);
        }
        return digits.substring(0, 4) + sep + digits.substring(4, 8) + sep + digits.substring(8, 12) + sep + digits.substring(12);
    }

    private static int checkDigit(String partial) {
        int sum = 0;
        boolean twice = true;
        for (int i = partial.length() - 1; i >= 0; i--) {
            int v = partial.charAt(i) - '0';
            if (twice) {
                v = v * 2 > 9 ? v * 2 - 9 : v * 2;
            }
            sum += v;
            twice = !twice;
        }
        return (10 - sum % 10) % 10;
    }

    String address() {
        String street = random.nextBoolean() ? pick(STREETS) : familyName();
        return (1 + random.nextInt(9800)) + " " + street + " " + pick(SUFFIXES) + pick(UNITS);
    }

    String version() {
        return random.nextInt(10) + "." + random.nextInt(30) + "." + random.nextInt(100);
    }

    String uuid() {
        return new java.util.UUID(random.nextLong(), random.nextLong()).toString();
    }

    String hash(int chars) {
        StringBuilder b = new StringBuilder();
        while (b.length() < chars) {
            b.append(Integer.toHexString(random.nextInt(16)));
        }
        return b.toString();
    }

    String timestamp() {
        return String.format("2025-%02d-%02dT%02d:%02d:%02d.%03dZ", 1 + random.nextInt(12), 1 + random.nextInt(28),
                random.nextInt(24), random.nextInt(60), random.nextInt(60), random.nextInt(1000));
    }

    String ip() {
        return "10." + random.nextInt(256) + "." + random.nextInt(256) + "." + random.nextInt(256);
    }

    String testCard() {
        return pick("4111 1111 1111 1111", "4242424242424242", "5555555555554444", "378282246310005",
                "6011111111111117", "4012888888881881");
    }

    String orderId() {
        return Long.toString(1_000_000_000L + Math.abs(random.nextLong() % 9_000_000_000L));
    }

    int nextInt(int bound) {
        return random.nextInt(bound);
    }
}
