package dev.stockade.inference.price;

/**
 * The prices Stockade meters, by their key in the price data: USD per million tokens ({@code *_mtok}), and web
 * searches in USD per thousand ({@code web_searches_kcount}). The audio and image keys price parts of the input,
 * cache read and output buckets (realtime voice models charge audio several times text).
 */
public enum PriceKey {
    INPUT("input_mtok"),
    OUTPUT("output_mtok"),
    CACHE_READ("cache_read_mtok"),
    CACHE_WRITE("cache_write_mtok"),
    CACHE_WRITE_1H("cache_write_1h_mtok"),
    OUTPUT_REASONING("output_reasoning_mtok"),
    WEB_SEARCHES("web_searches_kcount"),
    INPUT_AUDIO("input_audio_mtok"),
    CACHE_AUDIO_READ("cache_audio_read_mtok"),
    OUTPUT_AUDIO("output_audio_mtok"),
    INPUT_IMAGE("input_image_mtok"),
    CACHE_IMAGE_READ("cache_image_read_mtok");

    private final String dataKey;

    PriceKey(String dataKey) {
        this.dataKey = dataKey;
    }

    /** The key in the price data, e.g. {@code cache_read_mtok}. */
    public String dataKey() {
        return dataKey;
    }
}
