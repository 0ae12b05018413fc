package dev.stockade.inference.price;

/**
 * A row of the price data that could not be used; the rest of the table still prices.
 *
 * @param provider the data provider id
 * @param model    the model row's id (empty for a provider-level problem)
 * @param message  what is wrong, one line
 */
public record PriceProblem(String provider, String model, String message) {
}
