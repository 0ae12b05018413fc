package dev.stockade.pii.eval;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import dev.stockade.pii.PiiType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The regex-only baseline the engine is compared with: one pattern per type, no checksums, no phone metadata,
 * no gazetteers, no context, as a first masking filter is often written.
 */
public final class RegexBaseline {

    private static final Map<PiiType, Pattern> PATTERNS = Map.of(
            PiiType.EMAIL, Pattern.compile("[\\w.+-]+@[\\w-]+\\.[\\w.-]+"),
            PiiType.PHONE, Pattern.compile("\\+?\\(?\\d{2,4}\\)?[ .-]\\d{3,4}[ .-]?\\d{3,4}(?:[ .-]\\d{2,4})?"),
            PiiType.CREDIT_CARD, Pattern.compile("\\b(?:\\d[ -]?){12,18}\\d\\b"),
            PiiType.ADDRESS, Pattern.compile("\\b\\d{1,5} [A-Z][a-z]+(?: [A-Z][a-z]+)? (?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Drive|Way)\\b"),
            PiiType.PERSON, Pattern.compile("\\b[A-Z][a-z]+ [A-Z][a-z]+\\b"),
            PiiType.LOCATION, Pattern.compile("\\b(?:in|at|from|to) ([A-Z][a-z]+(?: [A-Z][a-z]+)?)"));

    private RegexBaseline() {
    }

    /** Every match of every pattern; the location pattern reports its capitalised words only. */
    public static List<GoldSpan> detect(String text) {
        List<GoldSpan> out = new ArrayList<>();
        for (Map.Entry<PiiType, Pattern> e : PATTERNS.entrySet()) {
            Matcher m = e.getValue().matcher(text);
            while (m.find()) {
                int group = m.groupCount() > 0 ? 1 : 0;
                out.add(new GoldSpan(m.start(group), m.end(group), e.getKey()));
            }
        }
        return out;
    }
}
