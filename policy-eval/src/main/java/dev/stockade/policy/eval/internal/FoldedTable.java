package dev.stockade.policy.eval.internal;

/**
 * An open-addressing map from lower-case ASCII keys to values, looked up by a range of a char sequence
 * with ASCII case folding, so that the hot path neither lower-cases nor cuts substrings.
 *
 * <p>INVARIANT: keys are stored lower-case; the table is filled once at compile time and only read after.
 */
final class FoldedTable<V> {
    private String[] keys;
    private Object[] values;
    private int size;

    FoldedTable() {
        keys = new String[8];
        values = new Object[8];
    }

    static int hash(CharSequence s, int from, int to) {
        int h = 0;
        for (int i = from; i < to; i++) {
            h = 31 * h + lower(s.charAt(i));
        }
        return h ^ (h >>> 16);
    }

    private static char lower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
    }

    @SuppressWarnings("unchecked")
    V get(CharSequence s, int from, int to) {
        int mask = keys.length - 1;
        int i = hash(s, from, to) & mask;
        int len = to - from;
        while (true) {
            String k = keys[i];
            if (k == null) {
                return null;
            }
            if (k.length() == len && sameFolded(k, s, from)) {
                return (V) values[i];
            }
            i = (i + 1) & mask;
        }
    }

    private static boolean sameFolded(String key, CharSequence s, int from) {
        for (int j = 0; j < key.length(); j++) {
            if (key.charAt(j) != lower(s.charAt(from + j))) {
                return false;
            }
        }
        return true;
    }

    V get(String key) {
        return get(key, 0, key.length());
    }

    void put(String lowerKey, V value) {
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        int i = hash(lowerKey, 0, lowerKey.length()) & mask;
        while (keys[i] != null) {
            if (keys[i].equals(lowerKey)) {
                values[i] = value;
                return;
            }
            i = (i + 1) & mask;
        }
        keys[i] = lowerKey;
        values[i] = value;
        size++;
    }

    @SuppressWarnings("unchecked")
    private void grow() {
        String[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new String[oldKeys.length * 2];
        values = new Object[oldKeys.length * 2];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null) {
                put(oldKeys[i], (V) oldValues[i]);
            }
        }
    }

    int size() {
        return size;
    }
}
