package io.mdhub.benchmarks.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * The table of a chaos run as text, CSV, markdown and JSON.
 */
@InterruptAfter(10)
class ChaosTableTest
{
    private static ChaosTable table()
    {
        return new ChaosTable(List.of("round", "fault", "lost", "verdict"))
            .add(List.of("1", "server-0", "0", "ok"))
            .add(List.of("2", "both (0 then 1)", "12", "FAIL: 12 acknowledged order(s) lost; pair not whole, yet"));
    }

    @Test
    void textAlignsFiguresRightAndTheFaultLeftAndLeavesTheVerdictAsItIs()
    {
        final String[] lines = table().text().split("\n");
        assertEquals(3, lines.length);
        assertEquals(" round  fault               lost  verdict", lines[0]);
        assertEquals("     1  server-0               0  ok", lines[1]);
        assertEquals("     2  both (0 then 1)       12  FAIL: 12 acknowledged order(s) lost; pair not whole, yet",
            lines[2]);
        final ChaosTable table = table();
        assertEquals(table.header().indexOf("lost") + "lost".length(), table.row(0).indexOf("0  ok") + 1,
            "a row printed alone lines up under the header");
    }

    @Test
    void csvQuotesCellsThatHoldCommasOrQuotes()
    {
        assertEquals("round,fault,lost,verdict\n" +
            "1,server-0,0,ok\n" +
            "2,both (0 then 1),12,\"FAIL: 12 acknowledged order(s) lost; pair not whole, yet\"\n", table().csv());
        assertEquals("a,b,c,v\n1,\"say \"\"hi\"\"\",2,ok\n",
            new ChaosTable(List.of("a", "b", "c", "v")).add(List.of("1", "say \"hi\"", "2", "ok")).csv());
    }

    @Test
    void markdownHasAHeaderRuleAndEscapesPipes()
    {
        final String md = new ChaosTable(List.of("round", "fault", "verdict")).add(List.of("1", "a|b", "ok"))
            .markdown();
        assertEquals("| round | fault | verdict |\n|---|---:|---|\n| 1 | a\\|b | ok |\n", md);
    }

    @Test
    void jsonKeysTheCellsByColumnAndWritesNumbersAsNumbers()
    {
        final Map<String, Object> header = new LinkedHashMap<>();
        header.put("seed", 42L);
        header.put("ok", false);
        header.put("faults", "server-0,both");
        final String json = table().json(header).replaceAll("\\s+", " ");
        assertTrue(json.startsWith("{ \"seed\" : 42, \"ok\" : false, \"faults\" : \"server-0,both\", " +
            "\"rounds\" : [ { \"round\" : 1, \"fault\" : \"server-0\", \"lost\" : 0, \"verdict\" : \"ok\" }"), json);
        assertTrue(json.contains("\"lost\" : 12, \"verdict\" : \"FAIL: 12 acknowledged"), json);
    }

    @Test
    void aRowMustHaveACellPerColumn()
    {
        assertThrows(IllegalArgumentException.class, () -> table().add(List.of("3", "server-1")));
    }
}
