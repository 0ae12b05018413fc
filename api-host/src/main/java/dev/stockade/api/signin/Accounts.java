package dev.stockade.api.signin;

import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.web.ApiProblem;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;

/**
 * The embedded provider's local accounts: an email address, a name and a bcrypt hash of the password (Bouncy
 * Castle, cost {@value #COST}). The operator creates them, so their addresses count as verified.
 */
@Singleton
final class Accounts {
    /** bcrypt's cost (2^10 rounds, its usual default): every guess costs the guesser a full hash too. */
    static final int COST = 10;
    static final int MIN_PASSWORD = 12;
    /** bcrypt reads at most 72 bytes; a longer password would be silently cut, so it is refused instead. */
    static final int MAX_PASSWORD_BYTES = 72;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A local account (never its hash). */
    record Account(UUID id, String email, String name) {
    }

    private final Sql sql;
    /** Checked when no account has the address, so a wrong address costs as long as a wrong password. */
    private final String decoy;

    Accounts(Sql sql) {
        this.sql = sql;
        this.decoy = hash(UUID.randomUUID().toString());
    }

    /** Creates an account; a bad address, name or password, or a taken address, is a validation problem. */
    Account create(String email, String name, String password) {
        String address = email == null ? "" : email.strip().toLowerCase(Locale.ROOT);
        if (!address.matches("[^@\\s]{1,64}@[^@\\s]{1,190}")) {
            throw ApiProblem.invalid("/email", "email", "`" + address + "` is not an email address");
        }
        String shown = name == null ? "" : name.strip();
        if (shown.isEmpty() || shown.length() > 200 || shown.chars().anyMatch(Character::isISOControl)) {
            throw ApiProblem.invalid("/name", "name", "the name must have 1 to 200 printable characters");
        }
        checkPassword(password);
        if (sql.exists("SELECT 1 FROM signin_accounts WHERE lower(email) = ?", List.of(address))) {
            throw ApiProblem.invalid("/email", "taken", "an account with this address exists");
        }
        // a concurrent create of the same address loses at the unique index: the one error path answers 409
        Account account = new Account(UUID.randomUUID(), address, shown);
        sql.update("INSERT INTO signin_accounts (id, email, name, password_hash) VALUES (?, ?, ?, ?)",
                List.of(account.id(), address, shown, hash(password)));
        return account;
    }

    /** The account whose address and password these are; empty for a wrong pair, after the same work either way. */
    Optional<Account> check(String email, String password) {
        if (email == null || password == null || password.getBytes(StandardCharsets.UTF_8).length > MAX_PASSWORD_BYTES) {
            return Optional.empty();
        }
        record Row(Account account, String hash) {
        }
        Optional<Row> row = sql.first("SELECT id, email, name, password_hash FROM signin_accounts"
                        + " WHERE lower(email) = ?", List.of(email.strip().toLowerCase(Locale.ROOT)),
                rs -> new Row(new Account(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3)),
                        rs.getString(4)));
        boolean ok = OpenBSDBCrypt.checkPassword(row.map(Row::hash).orElse(decoy), password.toCharArray());
        return ok ? row.map(Row::account) : Optional.empty();
    }

    Optional<Account> find(UUID id) {
        return sql.first("SELECT id, email, name FROM signin_accounts WHERE id = ?", List.of(id),
                rs -> new Account(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3)));
    }

    boolean any() {
        return sql.exists("SELECT 1 FROM signin_accounts", List.of());
    }

    static void checkPassword(String password) {
        if (password == null || password.codePointCount(0, password.length()) < MIN_PASSWORD) {
            throw ApiProblem.invalid("/password", "too-short", "the password needs at least " + MIN_PASSWORD
                    + " characters");
        }
        if (password.getBytes(StandardCharsets.UTF_8).length > MAX_PASSWORD_BYTES) {
            throw ApiProblem.invalid("/password", "too-long", "the password may have at most " + MAX_PASSWORD_BYTES
                    + " bytes (bcrypt reads no further)");
        }
    }

    private static String hash(String password) {
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        return OpenBSDBCrypt.generate("2b", password.toCharArray(), salt, COST);
    }
}
