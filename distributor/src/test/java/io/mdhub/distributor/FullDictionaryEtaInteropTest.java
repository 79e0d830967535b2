package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;

import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.RealHints;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Directory;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;

import io.aeron.Aeron;
import io.mdhub.backbone.BackboneNode;
import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.dictionary.DictionaryConfiguration;
import io.mdhub.common.dictionary.DictionaryLoader;
import io.mdhub.common.ripc.RipcConfiguration;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaDictionaries;
import io.mdhub.common.test.eta.EtaMessage;
import io.mdhub.common.test.eta.EtaNiProvider;
import io.mdhub.common.test.eta.GeneratedDictionary;
import io.mdhub.p2p.P2pServer;
import io.mdhub.p2p.backbone.BackboneItemSourceFactory;

/**
 * A p2p-server pointed at a full-size dictionary (an RDMFieldDictionary of 6,000 fields of every RWF type and an
 * enumtype.def of hundreds of tables, one of thousands of values, generated for the test) serves it whole: real ETA
 * consumers download RWFFld and RWFEnum in many parts and ETA loads exactly the generated fields and tables; an item
 * an ETA non-interactive provider publishes through the distributor and the backbone with fields only that
 * dictionary defines decodes with the downloaded one. The files reach the server through its Context and through the
 * {@code mdhub.dictionary.*} settings; a missing or malformed file stops the server at start, naming the file.
 */
@ExtendWith(EtaTransportExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@InterruptAfter(90)
class FullDictionaryEtaInteropTest
{
    private static final int FIELDS = 6_000;
    private static final int NIP_SERVICE_ID = 1;
    private static final String SERVICE_NAME = "NI_PUB";
    private static final int MAX_USER_MSG_SIZE = RipcConfiguration.MAX_USER_MSG_SIZE_DEFAULT;

    private Path dir;
    private GeneratedDictionary generated;
    private BackboneNode node;
    private Aeron aeron;
    private Distributor distributor;
    private P2pServer p2p;
    private EtaNiProvider provider;
    private final List<EtaConsumer> consumers = new ArrayList<>();
    private int nextConsumerId = 7_001;

    @BeforeAll
    void launch(@TempDir final Path dir) throws IOException
    {
        this.dir = dir;
        generated = GeneratedDictionary.write(Files.createDirectories(dir.resolve("etc")), FIELDS);
        node = BackboneNode.launch(new BackboneNode.Context()
            .aeronDirectoryName(dir.resolve("aeron").toString())
            .termBufferLength(64 * 1024)
            .ipcTermBufferLength(1024 * 1024)
            .dirDeleteOnShutdown(true));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(node.aeronDirectoryName()));
        final Distributor.Context distributorContext = new Distributor.Context()
            .providerPort(0)
            .componentName("full-dictionary-distributor");
        distributorContext.backbone().aeron(aeron);
        distributor = Distributor.launch(distributorContext);
        p2p = P2pServer.launch(p2pContext("full-dictionary-p2p")
            .dictionaryFieldFile(generated.fieldFile().toString())
            .dictionaryEnumFile(generated.enumFile().toString()));
    }

    @AfterEach
    void closeConsumers()
    {
        consumers.forEach(EtaConsumer::close);
        consumers.clear();
    }

    @AfterAll
    void close()
    {
        CloseHelper.closeAll(provider, p2p, distributor, aeron, node);
    }

    // ------------------------------------------------------------------ the tests

    @Test
    void bothDictionariesDownloadInSeveralPartsAndLoadExactlyAsGenerated()
    {
        final Consumer consumer = consumer(p2p, "download");
        final DataDictionary downloaded = CodecFactory.createDataDictionary();

        consumer.eta.requestDictionary(61, consumer.serviceId, DictionaryLoader.FIELD_DICTIONARY_NAME);
        final List<EtaMessage> fieldParts = consumer.eta.awaitDictionary(61, downloaded, true);
        assertTrue(fieldParts.size() > 10, () -> "RWFFld in many parts: " + fieldParts.size());
        assertParts(fieldParts, DictionaryLoader.FIELD_DICTIONARY_NAME);

        consumer.eta.requestDictionary(62, consumer.serviceId, DictionaryLoader.ENUM_TYPE_DICTIONARY_NAME);
        final List<EtaMessage> enumParts = consumer.eta.awaitDictionary(62, downloaded, false);
        assertTrue(enumParts.size() > 1, () -> "RWFEnum in several parts: " + enumParts.size());
        assertParts(enumParts, DictionaryLoader.ENUM_TYPE_DICTIONARY_NAME);
        for (final EtaMessage part : fieldParts)
        {
            assertTrue(part.bytes().length <= MAX_USER_MSG_SIZE, "a part fits the consumer's message size");
        }
        assertTrue(enumParts.get(0).bytes().length > MAX_USER_MSG_SIZE,
            "the large enum table comes in a larger part of its own, fragmented by RIPC");

        generated.assertSameAs(downloaded, false);
        assertEquals(FIELDS, downloaded.numberOfEntries());
        assertEquals(generated.tables().size(), downloaded.enumTableCount());
        assertTrue(downloaded.enumTableCount() > 200, "hundreds of enum tables: " + downloaded.enumTableCount());
        final GeneratedDictionary.Field last = generated.fields().get(FIELDS - 1);
        assertEquals(last.acronym(), downloaded.entry(last.fid()).acronym().toString());
        assertEquals(GeneratedDictionary.FIELD_VERSION, downloaded.infoFieldVersion().toString());
        assertEquals(GeneratedDictionary.ENUM_DT_VERSION, downloaded.infoEnumDTVersion().toString());
        final int largeTableField = generated.largeTable().fids().get(0);
        assertEquals("T0V" + (GeneratedDictionary.LARGE_TABLE_VALUES - 1), downloaded.entry(largeTableField)
            .enumTypeTable().enumTypes()[GeneratedDictionary.LARGE_TABLE_VALUES - 1].display().toString());
    }

    @Test
    void anItemWithFieldsOnlyTheFullDictionaryHasDecodesWithTheDownloadedDictionary()
    {
        final GeneratedDictionary.Field int64 = generated.firstField("INT64", 10_000);
        final GeneratedDictionary.Field real64 = generated.firstField("REAL64", 10_000);
        final GeneratedDictionary.Field date = generated.firstField("DATE", 10_000);
        final GeneratedDictionary.Field time = generated.firstField("TIME", 10_000);
        final GeneratedDictionary.Field rmtes = generated.firstField("RMTES_STRING", 10_000);
        final GeneratedDictionary.Field ascii = generated.firstField("ASCII_STRING", 10_000);
        final int enumFid = generated.largeTable().fids().get(1);
        final DataDictionary bundled = EtaDictionaries.bundled();
        for (final int fid : List.of(int64.fid(), real64.fid(), date.fid(), time.fid(), rmtes.fid(), ascii.fid(),
            enumFid))
        {
            assertNull(bundled.entry(fid), () -> "field " + fid + " is not in the bundled dictionary");
        }

        final int providerStream = -2;
        provider().refresh(providerStream, NIP_SERVICE_ID, "FULL.DICT", new EtaFieldLists().begin(1, 0)
            .intValue(int64.fid(), -9_876_543_210L)
            .real(real64.fid(), 1_234_567, RealHints.EXPONENT_4)
            .date(date.fid(), 2025, 6, 30)
            .time(time.fid(), 9, 30, 15, 250)
            .rmtes(rmtes.fid(), "FULL DICTIONARY")
            .ascii(ascii.fid(), "ASCII 42")
            .enumValue(enumFid, 2_345)
            .end());
        MdTests.await(() -> "the distributor to cache FULL.DICT",
            () -> 1 == distributor.onEventLoop(ServiceDirectory::itemCount));

        final Consumer consumer = consumer(p2p, "decode");
        consumer.eta.dictionary(consumer.eta.downloadDictionary(consumer.serviceId, 71, 72));
        consumer.eta.requestItem(73, consumer.serviceId, "FULL.DICT");
        final EtaMessage refresh = consumer.eta.awaitMessage(73);
        assertEquals(MsgClasses.REFRESH, refresh.msgClass(), refresh::toString);
        assertEquals(StreamStates.OPEN, refresh.streamState(), refresh::toString);
        assertEquals(DataTypes.INT, refresh.rwfType(int64.fid()));
        assertEquals(-9_876_543_210L, refresh.intValue(int64.fid()));
        assertEquals(DataTypes.REAL, refresh.rwfType(real64.fid()));
        assertEquals(1_234_567, refresh.mantissa(real64.fid()));
        assertEquals(RealHints.EXPONENT_4, refresh.hint(real64.fid()));
        assertEquals(LocalDate.of(2025, 6, 30), refresh.date(date.fid()));
        assertEquals(LocalTime.of(9, 30, 15, 250_000_000), refresh.time(time.fid()));
        assertEquals("FULL DICTIONARY", refresh.rmtes(rmtes.fid()));
        assertEquals("ASCII 42", refresh.ascii(ascii.fid()));
        assertEquals(2_345, refresh.enumValue(enumFid));
        assertEquals("T0V2345", refresh.enumDisplay(enumFid), "the display from the downloaded large table");

        provider.update(providerStream, new EtaFieldLists().begin(0, 0)
            .real(real64.fid(), 1_234_600, RealHints.EXPONENT_4)
            .enumValue(enumFid, 7)
            .end());
        final EtaMessage update = consumer.eta.awaitMessage(73);
        assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
        assertEquals(List.of(real64.fid(), enumFid), update.fieldIds());
        assertEquals(1_234_600, update.mantissa(real64.fid()));
        assertEquals("T0V7", update.enumDisplay(enumFid));
    }

    @Test
    void theSettingsKeysPointAServerAtTheFiles()
    {
        System.setProperty(DictionaryConfiguration.FIELD_FILE_PROP_NAME, generated.fieldFile().toString());
        System.setProperty(DictionaryConfiguration.ENUM_FILE_PROP_NAME, generated.enumFile().toString());
        final P2pServer.Context context;
        try
        {
            context = p2pContext("settings-p2p");
        }
        finally
        {
            System.clearProperty(DictionaryConfiguration.FIELD_FILE_PROP_NAME);
            System.clearProperty(DictionaryConfiguration.ENUM_FILE_PROP_NAME);
        }
        assertEquals(generated.fieldFile().toString(), context.dictionaryFieldFile());
        assertEquals(generated.enumFile().toString(), context.dictionaryEnumFile());

        try (P2pServer configured = P2pServer.launch(context))
        {
            final Consumer consumer = consumer(configured, "settings");
            generated.assertSameAs(consumer.eta.downloadDictionary(consumer.serviceId, 81, 82), false);
        }
    }

    @Test
    void aMissingOrMalformedDictionaryFileStopsStartUpNamingIt() throws IOException
    {
        final String enumFile = generated.enumFile().toString();
        final Path missing = dir.resolve("etc/RDMFieldDictionary.missing");
        assertStartUpFails(p2pContext("missing-p2p").dictionaryFieldFile(missing.toString())
            .dictionaryEnumFile(enumFile), missing.toString(), "no such file");

        final Path badFields = dir.resolve("bad-RDMFieldDictionary");
        Files.writeString(badFields, Files.readString(generated.fieldFile()).replaceFirst(" REAL64 ", " BOGUS  "));
        assertStartUpFails(p2pContext("bad-fields-p2p").dictionaryFieldFile(badFields.toString())
            .dictionaryEnumFile(enumFile), badFields.toString(), "Illegal Rwf Type 'BOGUS'");

        final Path badEnums = dir.resolve("bad-enumtype.def");
        Files.writeString(badEnums, "!tag RT_Version 1.0\n      0      \"X\"     a value of no field\n");
        assertStartUpFails(p2pContext("bad-enums-p2p").dictionaryFieldFile(generated.fieldFile().toString())
            .dictionaryEnumFile(badEnums.toString()), badEnums.toString(), "No referencing FIDs");

        // a missing file named through the settings, and one file without the other
        System.setProperty(DictionaryConfiguration.FIELD_FILE_PROP_NAME, missing.toString());
        System.setProperty(DictionaryConfiguration.ENUM_FILE_PROP_NAME, enumFile);
        final P2pServer.Context fromSettings;
        try
        {
            fromSettings = p2pContext("missing-settings-p2p");
        }
        finally
        {
            System.clearProperty(DictionaryConfiguration.FIELD_FILE_PROP_NAME);
            System.clearProperty(DictionaryConfiguration.ENUM_FILE_PROP_NAME);
        }
        assertStartUpFails(fromSettings, missing.toString(), "no such file");
        final IllegalArgumentException alone = assertThrows(IllegalArgumentException.class,
            () -> P2pServer.launch(p2pContext("alone-p2p").dictionaryEnumFile(enumFile)));
        assertTrue(alone.getMessage().contains(DictionaryConfiguration.FIELD_FILE_PROP_NAME) &&
            alone.getMessage().contains(DictionaryConfiguration.ENUM_FILE_PROP_NAME), alone::getMessage);
    }

    // ------------------------------------------------------------------ helpers

    /**
     * Settings of a p2p-server on the test's backbone, with a backbone id of its own (the default, the process id,
     * would make the distributor see one p2p-server restarting each time another starts).
     */
    private P2pServer.Context p2pContext(final String componentName)
    {
        return new P2pServer.Context()
            .port(0)
            .componentName(componentName)
            .itemSourceFactory(new BackboneItemSourceFactory(aeron,
                new BackboneItemSourceFactory.Settings().consumerId(nextConsumerId++)));
    }

    private static void assertStartUpFails(final P2pServer.Context context, final String file, final String reason)
    {
        final IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> P2pServer.launch(context).close());
        assertTrue(refused.getMessage().contains(file), refused::getMessage);
        assertTrue(refused.getMessage().contains(reason), refused::getMessage);
    }

    /**
     * Every part a dictionary refresh of the name, non-streaming; CLEAR_CACHE on the first only and, since
     * {@link EtaConsumer#awaitDictionary} stops at the first REFRESH_COMPLETE, that flag on the last only.
     */
    private static void assertParts(final List<EtaMessage> parts, final String name)
    {
        for (int i = 0; i < parts.size(); i++)
        {
            final EtaMessage part = parts.get(i);
            assertEquals(MsgClasses.REFRESH, part.msgClass(), part::toString);
            assertEquals(DomainTypes.DICTIONARY, part.domainType());
            assertEquals(name, part.keyName());
            assertEquals(StreamStates.NON_STREAMING, part.streamState(), part::toString);
            assertEquals(0 == i, ((RefreshMsg)part.msg()).checkClearCache(), "CLEAR_CACHE on part " + i);
            assertEquals(parts.size() - 1 == i, part.isRefreshComplete(), "REFRESH_COMPLETE on part " + i);
        }
        assertFalse(parts.isEmpty());
    }

    private EtaNiProvider provider()
    {
        if (null == provider)
        {
            provider = EtaNiProvider.connect(distributor.port());
            provider.login("eta-nip");
            provider.publishDirectory(NIP_SERVICE_ID, SERVICE_NAME);
        }
        return provider;
    }

    /**
     * A logged-in ETA consumer of a p2p-server that has seen the provider's service in the source directory, with
     * the RWFFld and RWFEnum dictionaries named as provided and used.
     */
    private Consumer consumer(final P2pServer server, final String user)
    {
        final EtaConsumer eta = EtaConsumer.connect(server.port());
        consumers.add(eta);
        eta.channel().serviceAlongside(provider().channel());
        assertEquals(StreamStates.OPEN, eta.login(user).state().streamState());
        int directoryStream = 2;
        while (true)
        {
            eta.requestDirectory(directoryStream, Directory.ServiceFilterFlags.INFO |
                Directory.ServiceFilterFlags.STATE, false, -1);
            final EtaMessage directory = eta.awaitMessage(directoryStream);
            assertEquals(MsgClasses.REFRESH, directory.msgClass(), directory::toString);
            for (final Service service : directory.directoryRefresh().serviceList())
            {
                if (service.checkHasInfo() && SERVICE_NAME.equals(service.info().serviceName().toString()))
                {
                    final List<String> names = List.of(
                        DictionaryLoader.FIELD_DICTIONARY_NAME, DictionaryLoader.ENUM_TYPE_DICTIONARY_NAME);
                    assertEquals(names, service.info().dictionariesProvidedList(), "DictionariesProvided");
                    assertEquals(names, service.info().dictionariesUsedList(), "DictionariesUsed");
                    return new Consumer(eta, service.serviceId());
                }
            }
            directoryStream++;
            MdTests.idle(() -> SERVICE_NAME + " in the p2p-server's directory");
        }
    }

    /**
     * An ETA consumer and the id it found the provider's service under.
     */
    private static final class Consumer
    {
        final EtaConsumer eta;
        final int serviceId;

        Consumer(final EtaConsumer eta, final int serviceId)
        {
            this.eta = eta;
            this.serviceId = serviceId;
        }
    }
}
