package dev.stockade.inference.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.inference.price.ModelPrice;
import dev.stockade.inference.price.PriceKey;
import dev.stockade.inference.price.Rate;
import dev.stockade.inference.price.Rates;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads one model row of the price data. Every price in the row is checked, those Stockade does not meter
 * included, because the data's own calculator rejects a row with any bad price; a bad row throws
 * {@link IllegalArgumentException} with a one-line reason.
 */
public final class PriceRows {

    private PriceRows() {
    }

    /** The row's schedule and context window as a {@link ModelPrice}. */
    public static ModelPrice read(String provider, String modelId, JsonNode row) {
        JsonNode prices = row.get("prices");
        List<ModelPrice.Scheduled> schedule = new ArrayList<>();
        if (prices != null && prices.isArray()) {
            if (prices.isEmpty()) {
                throw new IllegalArgumentException("`prices` is an empty list");
            }
            for (JsonNode entry : prices) {
                schedule.add(new ModelPrice.Scheduled(constraint(entry.get("constraint")), rates(entry.get("prices"))));
            }
        } else {
            schedule.add(new ModelPrice.Scheduled(Optional.empty(), rates(prices)));
        }
        OptionalLong window = Json.count(row.get("context_window"));
        return new ModelPrice(provider, modelId, window, schedule);
    }

    private static final Pattern TIME = Pattern.compile(
            "(\\d{2}):(\\d{2}):(\\d{2})(?:\\.\\d+)?(Z|([+-])(\\d{2}):(\\d{2}))");

    private static Optional<ModelPrice.Constraint> constraint(JsonNode constraint) {
        if (constraint == null || constraint.isNull()) {
            return Optional.empty();
        }
        String type = constraint.path("type").asText(constraint.has("start_date") ? "start_date" : "time_of_date");
        if (type.equals("start_date") && constraint.path("start_date").isTextual()) {
            try {
                return Optional.of(new ModelPrice.StartDate(LocalDate.parse(constraint.get("start_date").asText())));
            } catch (DateTimeParseException bad) {
                throw new IllegalArgumentException("start_date is not a yyyy-mm-dd date");
            }
        }
        if (type.equals("time_of_date")) {
            return Optional.of(new ModelPrice.TimeOfDay(utcSecond(constraint.path("start_time").asText("")),
                    utcSecond(constraint.path("end_time").asText(""))));
        }
        throw new IllegalArgumentException("unsupported price constraint `" + type + "`");
    }

    /** {@code HH:MM:SS[.f](Z|+HH:MM)} as the UTC second of the day, as the data's calculator reads it. */
    private static int utcSecond(String time) {
        Matcher m = TIME.matcher(time);
        if (!m.matches() || Integer.parseInt(m.group(1)) > 23 || Integer.parseInt(m.group(2)) > 59
                || Integer.parseInt(m.group(3)) > 59
                || (m.group(6) != null && (Integer.parseInt(m.group(6)) > 23 || Integer.parseInt(m.group(7)) > 59))) {
            throw new IllegalArgumentException("time of day `" + time + "` is not HH:MM:SS with an offset");
        }
        int local = Integer.parseInt(m.group(1)) * 3600 + Integer.parseInt(m.group(2)) * 60 + Integer.parseInt(m.group(3));
        int offset = m.group(5) == null ? 0
                : (m.group(5).equals("+") ? 1 : -1) * (Integer.parseInt(m.group(6)) * 3600 + Integer.parseInt(m.group(7)) * 60);
        return Math.floorMod(local - offset, 86_400);
    }

    private static Rates rates(JsonNode prices) {
        if (prices == null || !prices.isObject()) {
            throw new IllegalArgumentException("`prices` must be an object");
        }
        Map<String, Rate> all = new java.util.HashMap<>();
        for (Map.Entry<String, JsonNode> field : prices.properties()) {
            if (!field.getValue().isNull()) {
                all.put(field.getKey(), rate(field.getKey(), field.getValue()));
            }
        }
        Map<PriceKey, Rate> metered = new EnumMap<>(PriceKey.class);
        for (PriceKey key : PriceKey.values()) {
            Optional.ofNullable(all.get(key.dataKey())).ifPresent(rate -> metered.put(key, rate));
        }
        return new Rates(metered);
    }

    private static Rate rate(String key, JsonNode value) {
        if (value.isNumber()) {
            return Rate.flat(price(key, value));
        }
        if (!value.isObject() || !value.path("tiers").isArray()) {
            throw new IllegalArgumentException("price `" + key + "` is neither a number nor tiered prices");
        }
        List<Rate.Tier> tiers = new ArrayList<>();
        for (JsonNode tier : value.get("tiers")) {
            OptionalLong start = Json.count(tier.get("start"));
            if (start.isEmpty()) {
                throw new IllegalArgumentException("a tier of `" + key + "` has no non-negative integer start");
            }
            tiers.add(new Rate.Tier(start.getAsLong(), price(key, tier.get("price"))));
        }
        return new Rate(price(key, value.get("base")), tiers);
    }

    private static BigDecimal price(String key, JsonNode value) {
        if (value == null || !value.isNumber()) {
            throw new IllegalArgumentException("price `" + key + "` is not a number");
        }
        BigDecimal price = value.decimalValue();
        if (price.signum() < 0) {
            throw new IllegalArgumentException("price `" + key + "` is negative");
        }
        return price;
    }
}
