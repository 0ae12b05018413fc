package dev.stockade.pii;

/**
 * Where a placeholder sits in an answer, which decides how its value goes back in: as it is into plain text, or
 * JSON-escaped into JSON source text (a tool call's arguments, streamed or whole), where the placeholder lies inside a
 * string literal and a quote, backslash or control character in the value would otherwise break the JSON.
 */
public enum TextForm {
    /** Text as a reader sees it: a message, a thinking text, a decoded JSON string value. */
    PLAIN,
    /** JSON source text, whole or in fragments: the value goes in escaped as a JSON string's content. */
    JSON
}
