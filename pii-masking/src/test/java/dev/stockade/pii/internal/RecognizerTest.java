package dev.stockade.pii.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.pii.PiiType;
import dev.stockade.pii.ScanBudget;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every type: values it must find (exact text) and look-alikes it must leave alone. */
class RecognizerTest {

    private static final Detector ALL = Detector.forTypes(EnumSet.allOf(PiiType.class));

    private static List<String> found(String text, PiiType type) {
        return ALL.detect(text, ScanBudget.DEFAULT).stream().filter(s -> s.type() == type)
                .map(s -> text.substring(s.start(), s.end())).toList();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "EMAIL       | write to jane.doe+tag@mail.example.co.uk today         | jane.doe+tag@mail.example.co.uk",
        "EMAIL       | <a href=\"mailto:ops@acme.io\">                       | ops@acme.io",
        "PHONE       | call me at (415) 867-5309 tomorrow                     | (415) 867-5309",
        "PHONE       | office: +44 20 7946 0958                               | +44 20 7946 0958",
        "PHONE       | Berlin desk 030 901820, ask for Jan                    | 030 901820",
        "PHONE       | mobile +91 98765 43210                                 | +91 98765 43210",
        "PHONE       | phone 4158675309                                       | 4158675309",
        "PHONE       | <a href=\"tel:+14158675309\">call us</a>             | +14158675309",
        "PHONE       | WhatsApp +44 7911 304461 (an unallocated range)         | +44 7911 304461",
        "CREDIT_CARD | card 4539 1488 0343 6467 exp 09/27                     | 4539 1488 0343 6467",
        "CREDIT_CARD | pan=5425-1877-4412-0933;                               | 5425-1877-4412-0933",
        "CREDIT_CARD | amex 378282246310013.                                  | 378282246310013",
        "ADDRESS     | ship to 221B Baker Street, Apt 4, London               | 221B Baker Street, Apt 4",
        "ADDRESS     | HQ: 1600 Amphitheatre Parkway, Mountain View           | 1600 Amphitheatre Parkway",
        "ADDRESS     | send it to Hauptstraße 27, 10827 Berlin                | Hauptstraße 27",
        "ADDRESS     | livré au 14 rue de la Paix à Paris                     | 14 rue de la Paix",
        "ADDRESS     | lives at 2207 N. Lakewood Ave, Apt 3B, Chicago         | 2207 N. Lakewood Ave, Apt 3B",
        "PERSON      | Hi Maria, the report is ready                          | Maria",
        "PERSON      | Dear Dr. Nkechi Adeyemi, thank you                     | Nkechi Adeyemi",
        "PERSON      | the review by Jan Kowalczyk found two bugs             | Jan Kowalczyk",
        "PERSON      | From: Sandra Müller <s@contoso.de>                     | Sandra Müller",
        "PERSON      | \"name\": \"Zorbek Quillfeather\"                      | Zorbek Quillfeather",
        "LOCATION    | we moved the offsite to San Francisco                  | San Francisco",
        "LOCATION    | the office in Lyon is closed                           | Lyon",
        "LOCATION    | the workshop in Kraków is full                         | Kraków",
        "LOCATION    | 88 Harbour Road, Wan Chai                              | Wan Chai",
    })
    void findsEachType(PiiType type, String text, String expected) {
        assertThat(found(text, type)).containsExactly(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "EMAIL       | icon@2x.png and npm i react@18.2.0 and git@github                         ",
        "PHONE       | released 2024-01-15 10:30:00, build 20240115, ip 192.168.10.200           ",
        "PHONE       | order id 1234567890 shipped; port 8080; pid 48213                          ",
        "PHONE       | uuid 123e4567-e89b-12d3-a456-426614174000                                   ",
        "PHONE       | build 20240611.4, invoice 2024-0915, request c0a8-1234-5678                 ",
        "CREDIT_CARD | test card 4111 1111 1111 1111 and 4242424242424242 in the fixture          ",
        "CREDIT_CARD | 4539 1488 0343 6468 fails the Luhn check                                   ",
        "CREDIT_CARD | tracking 1Z999AA10123456784 and sha 4a7d1ed414474e4033ac29ccb8653d9b       ",
        "CREDIT_CARD | 1234567890123456 has no issuer                                             ",
        "ADDRESS     | we have 3 Main concerns and 12 Open issues                                 ",
        "PERSON      | Will you check whether the deploy finished?                                ",
        "PERSON      | class UserService { String getName() { return user.Name; } }               ",
        "PERSON      | INFO ERROR WARN DEBUG Kubernetes Grafana                                   ",
        "PERSON      | Mark the ticket as resolved and close it                                   ",
        "LOCATION    | Reading the logs, the Mobile client sends an empty token                   ",
        "LOCATION    | the release moves to March and the sync to Thursday                        ",
    })
    void leavesLookAlikesAlone(PiiType type, String text) {
        assertThat(found(text, type)).isEmpty();
    }

    @org.junit.jupiter.api.Test
    void aTownWithAStateAbbreviationIsTwoPlaces() {
        assertThat(found("she lives in Springfield, IL now", PiiType.LOCATION)).containsExactly("Springfield", "IL");
    }

    @org.junit.jupiter.api.Test
    void aPhoneNumberNextToOtherDigitGroupsIsFound() {
        assertThat(found("call (415) 867-5309  4539 1488 0343 6467", PiiType.PHONE)).containsExactly("(415) 867-5309");
    }

    @org.junit.jupiter.api.Test
    void valuesSideBySideAreEachFound() {
        assertThat(found("cc a.b@x.org;c.d@y.org,e@z.io", PiiType.EMAIL)).containsExactly("a.b@x.org", "c.d@y.org", "e@z.io");
        assertThat(found("cards 4539148803436467,5425187744120933", PiiType.CREDIT_CARD))
                .containsExactly("4539148803436467", "5425187744120933");
    }

    @org.junit.jupiter.api.Test
    void aMailboxFarIntoALongTextIsFound() {
        String text = "@ handle ".repeat(500) + "then write to someone.long.name@sub.example.museum please";
        assertThat(found(text, PiiType.EMAIL)).containsExactly("someone.long.name@sub.example.museum");
    }

    @org.junit.jupiter.api.Test
    void onlySelectedTypesAreReported() {
        Detector emailOnly = Detector.forTypes(EnumSet.of(PiiType.EMAIL));
        String text = "Maria at maria@example.com, (415) 867-5309";
        assertThat(emailOnly.detect(text, ScanBudget.DEFAULT)).extracting(Span::type).containsExactly(PiiType.EMAIL);
    }

    @org.junit.jupiter.api.Test
    void aValueAcrossAWindowBoundaryIsFoundOnce() {
        ScanBudget small = new ScanBudget(1 << 20, 256, 64);
        String pad = "x ".repeat(120);
        String text = pad + "write to jane.doe@example.com now " + pad;
        assertThat(Detector.forTypes(EnumSet.of(PiiType.EMAIL)).detect(text, small))
                .extracting(s -> text.substring(s.start(), s.end())).containsExactly("jane.doe@example.com");
    }
}
