"""The one judgement on the pairs the issue names, in four languages, and on real memory lines."""

import re
from itertools import combinations

import pristine
import pytest

from memclaw.judgement import Relation, is_correction, judge, may_say_it_otherwise, merged

SAME, RICHER, UPDATE, DISTINCT = Relation


@pytest.mark.parametrize(
    ("old", "new", "relation"),
    [
        # A new value of a single-valued attribute: the newer one wins, cue or not.
        ("Priya works at Spotify.", "Priya now works at Klarna.", UPDATE),
        ("Priya works at Spotify.", "Priya works at Klarna.", UPDATE),
        ("Jonas is vegetarian.", "Jonas went fully vegan.", UPDATE),
        ("Sam lives in Lisbon with his cat Miso.", "Sam moved to Porto.", UPDATE),
        ("Maya is vegetarian", "Maya eats meat", UPDATE),
        ("Cutover: Saturday 2026-12-12", "Correction: the cutover moved to 2026-12-19.", UPDATE),
        ("The user is allergic to cats.", "The user is not allergic to cats.", UPDATE),
        ("Der Nutzer hat zwei Kinder.", "Der Nutzer hat drei Kinder.", UPDATE),
        ("Användaren bor i Stockholm.", "Användaren har flyttat till Uppsala.", UPDATE),
        ("Mein Cousin wohnt in Bonn.", "Mein Cousin zog nach Köln.", UPDATE),
        ("I prefer answers in Swedish.", "I'd like answers in English from now on.", UPDATE),
        ("El usuario vive en Sevilla.", "En realidad el usuario vive en Cádiz.", UPDATE),
        ("Prefers tea in the morning.", "Prefers coffee in the morning.", UPDATE),
        # An invoice's number names it; one has several conditions at once.
        ("Factura 0931 de Endesa: 87,40 €.", "Factura 0932 de Endesa: 92,15 €.", DISTINCT),
        ("Elin är allergisk mot pollen.", "Elin är glutenintolerant.", DISTINCT),
        ("Elin es alérgica al polen.", "Elin es celíaca.", DISTINCT),
        ("Anna är lärare.", "Anna är läkare.", UPDATE),
        # One of a kind, then which one, with the same verb: the specific holds the general.
        ("The user is learning a language.", "The user is learning Japanese for JLPT N4.", RICHER),
        ("Användaren spelar ett instrument.", "Användaren spelar cello i en kvartett.", RICHER),
        ("I have a dog.", "I have a cat named Miso.", DISTINCT),
        ("I play an instrument.", "I don't play the cello.", DISTINCT),
        # The last noun says what a thing is: a home's router is not the home (it had
        # replaced where the person lives); after "de", the first ("ordenador de trabajo").
        (
            "I live in a flat in Kreuzberg.",
            "User's home Wi-Fi router is a Fritz!Box 7530.",
            DISTINCT,
        ),
        ("User's home Wi-Fi router is a Fritz!Box 7530.", "I moved to Leipzig.", DISTINCT),
        ("User's home address is Storgatan 5.", "User's home address is Kungsgatan 12.", UPDATE),
        (
            "Mi ordenador de trabajo es un Dell XPS 13.",
            "Mi ordenador de trabajo es ahora un MacBook Air.",
            UPDATE,
        ),
        # Whose a note's attribute is, said first, is its owner ("Mammas födelsedag").
        ("Mammas födelsedag: 14 maj", "Mamma fyller år den 17 maj.", UPDATE),
        ("Mammas födelsedag: 14 maj", "Pappas födelsedag: 17 maj", DISTINCT),
        ("Sam's birthday: 3 May", "My birthday: 5 May", DISTINCT),
        # Being called is being ("Min fru heter Anna", "Anna är min hustru"); a wife, being
        # employed, however said.
        ("Min fru heter Anna.", "Anna är min hustru.", SAME),
        ("Die Katze heißt Mimi.", "Mimi ist die Katze.", SAME),
        ("My sister is called Anna.", "Anna is my cousin.", DISTINCT),
        (
            "Användaren jobbar som sjuksköterska på Karolinska.",
            "Karolinska har anställt användaren som sjuksköterska.",
            SAME,
        ),
        # A birthday says the new age whenever it was; a gym's fee charged anew is its fee.
        ("Onkel Rudi ist 67 Jahre alt.", "Onkel Rudi ist letzte Woche 68 geworden.", UPDATE),
        (
            "La cuota del gimnasio es de 45 € al mes.",
            "El gimnasio me cobra 39,90 € mensuales.",
            UPDATE,
        ),
        ("Netflix costs 12 € a month.", "Spotify costs 10 € a month.", DISTINCT),
        ("My rent is 1,000 € a month.", "The parking spot costs 50 € a month.", DISTINCT),
        # What is used, however it is said, is what a switch gives up.
        (
            "Der Nutzer verwendet Thunderbird als Mail-Client.",
            "Der Nutzer ist auf Outlook umgestiegen.",
            UPDATE,
        ),
        ("The user likes spicy food.", "The user can't stand spicy food.", UPDATE),
        ("The team standup is at 09:15.", "The team standup is at 09:45.", UPDATE),
        # A number in groups of three is one amount.
        (
            "Användarens hyra är 9 800 kronor i månaden.",
            "Användarens hyra är nu 10 400 kronor i månaden.",
            UPDATE,
        ),
        (
            "The search API runs Elasticsearch 7.17.",
            "The search API runs Elasticsearch 8.13.",
            UPDATE,
        ),
        # A number of a named thing, an amount after the verb: the attribute's new value.
        (
            "Der Checkout-Service läuft auf Java 17.",
            "Der Checkout-Service läuft auf Java 21.",
            UPDATE,
        ),
        ("The retro is in Room 204.", "The retro is in Room 305.", UPDATE),
        (
            "User pays 45 euros a month for the gym.",
            "User pays 52 euros a month for the gym.",
            UPDATE,
        ),
        # Something of what it named is another thing: "loves Anna" stays beside it.
        ("User loves Anna.", "User loves Anna's dog.", DISTINCT),
        ("User lives in Porto.", "User lives in Porto's old town.", RICHER),
        # ... but a number that names the subject names another one.
        ("Invoice 4411 was paid.", "Invoice 4412 was paid.", DISTINCT),
        ("Kenji's manager is Laura Diaz.", "Kenji's manager is Mark Chen.", UPDATE),
        ("User's timezone is UTC+2.", "User's timezone is UTC-5.", UPDATE),
        # A later clause's "the A is V" is the subject's own attribute.
        (
            "User's mortgage rate is fixed at 3.9%.",
            "User refinanced and the mortgage rate is now 3.2%.",
            UPDATE,
        ),
        (
            "User's timezone is Pacific Time.",
            "User relocated to London and their timezone is now GMT.",
            UPDATE,
        ),
        ("Sam lives in Lisbon.", "Sam visited Porto and the trip was great.", DISTINCT),
        # A correction of where Maya lives is not one of her name.
        ("Name: Maya", "Correction: Maya lives in Bergen.", DISTINCT),
        # Where a piece of work stands is one state at a time; a person is no ticket.
        (
            "The migration ticket INFRA-442 is in progress.",
            "The migration ticket INFRA-442 is done.",
            UPDATE,
        ),
        ("Ticket INFRA-442 is in progress.", "Ticket INFRA-443 is done.", DISTINCT),
        ("User is open to relocating.", "User is done with the course.", DISTINCT),
        (
            "Gemma plays tennis regularly.",
            "Gemma plays tennis at the Fairway club every Thursday evening.",
            RICHER,
        ),
        ("Gemma plays tennis regularly.", "Gemma plays golf every Thursday.", DISTINCT),
        ("Projektet Falken har status grön", "Projektet Örnen har status röd", DISTINCT),
        (
            "The staging database runs on PostgreSQL 13",
            "The production DB was upgraded to PostgreSQL 15",
            DISTINCT,
        ),
        ("User's sister, a nurse, lives in Braga", "User lives in Porto", DISTINCT),
        # An amount said to have moved is its new value; another one's amount is not.
        (
            "El presupuesto del proyecto es 20000 euros",
            "El presupuesto del proyecto subió a 25000 euros",
            UPDATE,
        ),
        ("The project budget is 20000 euros", "The project budget rose to 25000 euros", UPDATE),
        ("Die Miete beträgt 900 Euro", "Die Miete stieg auf 950 Euro", UPDATE),
        ("The project budget is 20000 euros", "The marketing budget rose to 25000 euros", DISTINCT),
        # A move of someone named as one of the person's is no news of their cat.
        (
            "Mi compañero Andrés tiene un gato llamado Chispa.",
            "Andrés se mudó a Granada.",
            DISTINCT,
        ),
        ("Mi hermano tiene un perro llamado Toby", "Mi hermano se mudó a Sevilla", DISTINCT),
        (
            "The staging server runs Postgres 15",
            "The production server now runs Postgres 16",
            DISTINCT,
        ),
        # A sentence opened by a preposition has its subject after the verb (V2 order).
        ("Anna tränar på måndagar.", "På måndagar tränar Anna.", SAME),
        ("Lisa tränar på måndagar.", "På måndagar tränar Anna.", DISTINCT),
        # A thing's name, however it is given; another thing's name is another fact.
        ("User's dog is called Rufus.", "Rufus is the name of User's dog.", SAME),
        ("User's dog is called Rufus.", "The name of User's dog is Rufus.", SAME),
        ("User's dog is called Rufus.", "Rufus is the name of User's cat.", DISTINCT),
        ("User's name is Maya.", "Maya is the name of User's dog.", DISTINCT),
        # The one spoken of, named now: by a name and its number, or in German after a
        # comma; a week that became one of its days.
        (
            "Sarah's flight lands on Friday.",
            "Sarah's flight BA 117 lands on Friday at 18:40 at Heathrow.",
            RICHER,
        ),
        ("Flight BA 117 lands on Friday.", "Flight BA 118 lands on Friday at 18:40.", DISTINCT),
        (
            "Die Schwester des Nutzers studiert.",
            "Die Schwester des Nutzers, Jana, studiert Medizin in Heidelberg.",
            RICHER,
        ),
        (
            "Meeting with the auditors next week.",
            "Meeting with the auditors next Wednesday at 11:00 in room 4B.",
            RICHER,
        ),
        (
            "Meeting with the auditors next week.",
            "Meeting with the lawyers next Wednesday.",
            DISTINCT,
        ),
        # The same fact, or more of it.
        ("Leo works at Volvo.", "Leo is employed by Volvo.", SAME),
        ("The user works at Ericsson.", "The user works for Ericsson in Kista.", RICHER),
        ("Tomas is 41.", "Tomas is 41 years old.", SAME),
        (
            "User has a dog named Poppy.",
            "User has a dog named Poppy who just learned fetch.",
            RICHER,
        ),
        ("Ezra's birthday is 12 October.", "Ezra was born on 12 October.", SAME),
        (
            "Ignacio trabaja en el Hospital La Paz.",
            "Ignacio trabaja en el Hospital La Paz como enfermero de urgencias.",
            RICHER,
        ),
        ("Dmitri is 52 and collects old maps.", "Correction: Dmitri is 53.", UPDATE),
        ("Der Nutzer arbeitet bei Siemens.", "Eigentlich arbeitet der Nutzer bei Bosch.", UPDATE),
        ("User moved to Lisbon on 2026-11-27.", "User moved to Lisbon on 2026-11-25.", UPDATE),
        (
            "La reunión semanal con el cliente es los lunes a las 10.",
            "La reunión semanal con el cliente es los viernes a las 12.",
            UPDATE,
        ),
        # Another fact: another subject, attribute or member, a near twin, a passing constraint.
        ("Sam lives in Porto.", "Sam's sister Ana lives in Braga.", DISTINCT),
        (
            "User has a flight to Madrid on 3 May.",
            "User has a flight to Madrid on 10 May.",
            DISTINCT,
        ),
        (
            "Der Nutzer fliegt am 3. Juli nach Wien.",
            "Der Nutzer fliegt am 17. Juli nach Wien.",
            DISTINCT,
        ),
        (
            "User plays five-a-side football on Wednesdays.",
            "User plays padel on Saturdays.",
            DISTINCT,
        ),
        (
            "User's sister Clara is a nurse in Leeds.",
            "User's sister Clara is training for a triathlon.",
            DISTINCT,
        ),
        ("User's son Noah is allergic to eggs.", "User's son Noah is allergic to kiwi.", DISTINCT),
        ("User's manager is Diego Alvarez.", "User's skip-level manager is Helen Cho.", DISTINCT),
        (
            "La rama feature/pagos contiene la nueva pasarela.",
            "La rama feature/envios contiene el nuevo cálculo de costes.",
            DISTINCT,
        ),
        (
            "Bram is writing a book about sailing, with Faber as publisher.",
            "Bram's sailing book is about crossing the North Sea in a small boat.",
            DISTINCT,
        ),
        ("User prefers dark mode.", "User prefers tabs over spaces.", DISTINCT),
        ("The team uses Jira for planning.", "The team uses GitHub Actions for CI.", DISTINCT),
        ("User's manager is Clara Olsen.", "User's mentor is Victor Hale.", DISTINCT),
        ("Staging runs Postgres 15.", "Production runs Postgres 14.", DISTINCT),
        ("User has a dog named Biscuit.", "User has a cat named Juno.", DISTINCT),
        # Liking one thing does not end liking another; preferring one does.
        ("Sam likes tea.", "Sam likes coffee.", DISTINCT),
        ("Sam prefers tea.", "Sam prefers coffee.", UPDATE),
        ("Ahmed has visited Japan.", "Ahmed visited Peru last summer.", DISTINCT),
        ("User speaks Swedish fluently.", "User is learning Spanish on Duolingo.", DISTINCT),
        (
            "User runs 10 km every Sunday.",
            "User hurt his knee and can't run for a month.",
            DISTINCT,
        ),
        (
            "The nightly backup of the orders database runs at 02:00 on server alpha.",
            "The nightly backup of the orders database runs at 02:00 on server beta.",
            DISTINCT,
        ),
        (
            "Invoice 4411 from Nordlys AB was paid.",
            "Invoice 4412 from Nordlys AB was paid.",
            DISTINCT,
        ),
        (
            "The build server b3 uses port 8030 for the artifact cache.",
            "The build server b4 uses port 8030 for the artifact cache.",
            DISTINCT,
        ),
        ("Dry run #3 took 1 h 52 min.", "Dry run #4 took 1 h 40 min.", DISTINCT),
        ("Jonas lives in Uppsala.", "Maya lives in Bergen.", DISTINCT),
        ("The user's cat is called Miso.", "The user's dog is called Knut.", DISTINCT),
        ("Ravi is learning Spanish.", "Ravi is learning Japanese too.", DISTINCT),
        ("Chloe is allergic to penicillin.", "Chloe is allergic to cats.", DISTINCT),
        ("Der Nutzer wohnt in Leipzig.", "Die Eltern des Nutzers wohnen in Rostock.", DISTINCT),
        ("La mentora de Sofía es Elena Vidal.", "El jefe de Sofía es Ramón Gil.", DISTINCT),
        # The same in other words: one idea, however it is phrased, in four languages.
        ("User doesn't drink alcohol.", "User avoids alcohol entirely.", SAME),
        ("Der Nutzer trinkt keinen Alkohol.", "Der Nutzer verzichtet komplett auf Alkohol.", SAME),
        ("Användaren dricker inte kaffe.", "Användaren avstår helt från kaffe.", SAME),
        ("El usuario es intolerante a la lactosa.", "El usuario no tolera la lactosa.", SAME),
        ("Användaren bor i Lund.", "Användaren är bosatt i Lund.", SAME),
        ("User is allergic to shellfish.", "User has a shellfish allergy.", SAME),
        ("El usuario es alérgico al polen.", "El usuario tiene alergia al polen.", SAME),
        ("Användaren har en Tesla Model Y.", "Användaren äger en Tesla Model Y.", SAME),
        (
            "User has been learning Korean since 2021.",
            "Since 2021, User has been studying Korean.",
            SAME,
        ),
        (
            "Der Nutzer arbeitet als Arzt in München.",
            "In München ist der Nutzer als Arzt tätig.",
            SAME,
        ),
        ("Wyatt is red-green colour-blind.", "Wyatt has red-green colour blindness.", SAME),
        ("User hates cilantro.", "User can't stand cilantro.", SAME),
        ("User has two kids.", "User has 2 children.", SAME),
        # ... and doing what one was said to avoid is a new value, not another fact.
        ("User doesn't drink alcohol.", "User drinks alcohol.", UPDATE),
        ("El usuario no tolera la lactosa.", "El usuario tolera la lactosa.", UPDATE),
        ("User doesn't drink alcohol.", "User drinks wine on Fridays.", DISTINCT),
        ("Leo works at Volvo.", "Leo visited Volvo.", DISTINCT),
        ("User lives in Oslo.", "User was born in Oslo.", DISTINCT),
        # What an owner has, named by both, is the owner's attribute, not someone else.
        ("User's preferred airline seat is the aisle.", "User now prefers a window seat.", UPDATE),
        ("User's manager is Diego Alvarez.", "User's skip-level manager is Helen Cho.", DISTINCT),
        ("User's dog Rufus is 3 years old.", "User is 34 years old.", DISTINCT),
        ("User's dog sleeps in the hall.", "User sleeps in the attic with the dog.", DISTINCT),
        # An announced change of what a line is about, in other plain words.
        (
            "The auth service runs Keycloak 21 in production.",
            "Production auth has been upgraded to Keycloak 24.",
            UPDATE,
        ),
        ("Server b3 runs Keycloak 21.", "Server b4 was upgraded to Keycloak 24.", DISTINCT),
        # What the older line mentions in passing is not what it says: a move it dates by
        # is not the fact that changed when the move is announced.
        ("User sleeps badly since the move.", "User moved to Porto.", DISTINCT),
        # One version runs in production at a time, however each says so; a release of
        # which something else is said, or another server, is another one.
        (
            "The payments-api service in production runs version 2.3.1.",
            "payments-api in prod is on 2.4.0 since this morning's deploy.",
            UPDATE,
        ),
        (
            "Inloggningstjänsten i produktion kör version 1.8.2.",
            "Inloggningstjänsten i produktion uppgraderades till 1.9.0 i går.",
            UPDATE,
        ),
        (
            "Version 2.3.1 of the billing service is running in production",
            "Billing service 2.4.0 is now in production",
            UPDATE,
        ),
        (
            "Version 5.1 of the mobile app passed App Store review.",
            "Version 5.2 of the mobile app passed App Store review.",
            DISTINCT,
        ),
        (
            "Server alpha runs Ubuntu 22.04 in production.",
            "Server beta runs Ubuntu 24.04 in production.",
            DISTINCT,
        ),
        # The speaker's own attribute, said with "my" either side of the copula.
        ("Mi jefe es Ricardo Peña.", "Mi jefa es Marta Gil.", UPDATE),
        ("Mi jefe es Ricardo Peña.", "Marta Gil es mi responsable directa.", UPDATE),
        ("Mein Chef ist Ricardo.", "Marta ist meine Chefin.", UPDATE),
        ("My manager is Ricardo.", "Marta is my mentor.", DISTINCT),
        ("My manager is Anna.", "My manager's manager is Tom.", DISTINCT),
        # The same value taken back is a change, not the same attribute said again.
        ("Elena is vegetarian.", "Elena is no longer vegetarian.", UPDATE),
        ("Jonas ist Vegetarier.", "Jonas ist kein Vegetarier mehr.", UPDATE),
        ("Sam lives in Porto.", "Sam doesn't live in Porto any more.", UPDATE),
        ("Maya lives in Oslo.", "Maya lives in Oslo and does not own a car.", RICHER),
        # The speaker is the user, however the speaker says "I".
        ("I'm vegetarian.", "I've gone fully vegan since last autumn.", UPDATE),
        ("Jag bor i Malmö.", "Användaren bor i Malmö.", SAME),
        # A word of when first puts the subject after the verb ("Numera kör jag").
        ("Jag kör en Volvo V70 från 2008.", "Numera kör jag en begagnad Tesla Model 3.", UPDATE),
        # An age reached, a home moved into.
        ("Mein Sohn Felix ist 7 Jahre alt.", "Felix ist gestern 8 geworden.", UPDATE),
        (
            "Oma Hilde wohnt noch in ihrem Haus in Kassel.",
            "Oma Hilde ist ins Pflegeheim St. Anna in Kassel gezogen.",
            UPDATE,
        ),
        # A doing stopped takes back the doing, in every language.
        ("Tom works at Spotify.", "Tom quit Spotify.", UPDATE),
        ("Anna smokes a pack a day.", "Anna quit smoking.", UPDATE),
        ("Anna plays tennis on Tuesdays.", "Anna stopped playing tennis.", UPDATE),
        ("Jonas jobbar på Ericsson.", "Jonas har slutat på Ericsson.", UPDATE),
        ("Anna arbeitet bei Siemens.", "Anna hat bei Siemens aufgehört.", UPDATE),
        ("Lucía trabaja en Telefónica.", "Lucía dejó Telefónica.", UPDATE),
        ("Tom works at Spotify.", "Tom's sister quit Spotify.", DISTINCT),
        ("Maya drinks coffee.", "Maya quit her job.", DISTINCT),
        ("Tengo la suscripción de Disney+ activa.", "Cancelé Disney+ la semana pasada.", UPDATE),
        ("User has a Netflix subscription.", "User cancelled the Spotify subscription.", DISTINCT),
        ("Mi jefa es Laura Gómez.", "Ahora mi jefe es Andrés Ruiz.", UPDATE),
        # Where a piece of work stands, however its status is named.
        ("Das Ticket INF-311 ist in Bearbeitung.", "INF-311 ist erledigt.", UPDATE),
        ("Project Falcon's status is on hold.", "Falcon is back in active development.", UPDATE),
        # A time zone by its name or its abbreviation.
        (
            "I'm based in the Pacific timezone.",
            "Actually, I'm on Central European Time now that I've moved to Berlin.",
            UPDATE,
        ),
        (
            "Der Nutzer befindet sich in der Zeitzone MEZ.",
            "Der Nutzer lebt jetzt in New York, also Eastern Time.",
            UPDATE,
        ),
        ("Maya works on Pacific Time.", "Maya's sister works on Eastern Time.", DISTINCT),
        # A thing used as one of a kind a person uses one of: a phone, a computer.
        (
            "Jag använder en Samsung Galaxy S21 som mobil.",
            "Min telefon är numera en Fairphone 5.",
            UPDATE,
        ),
        (
            "Uso un portátil Dell XPS 13 para trabajar.",
            "Mi ordenador de trabajo es ahora un MacBook Air.",
            UPDATE,
        ),
        ("User uses a MacBook as work laptop.", "User uses an iPad as e-reader.", DISTINCT),
        # A thing migrated to another host is on that host now.
        (
            "The staging database runs on host db-stg-02.",
            "Staging DB was migrated to db-stg-07.",
            UPDATE,
        ),
        # Two ties, one name: two people ("my sister Klara", "my cousin Klara").
        ("Min syster Klara jobbar som läkare.", "Min kusin Klara jobbar som advokat.", DISTINCT),
        ("My sister Klara is a doctor.", "My cousin Klara is a lawyer.", DISTINCT),
        # A month both name is part of the date that changed, not a detail turned main.
        (
            "Der Zahnarzttermin von Lukas ist am 12. Mai um 8 Uhr.",
            "Lukas' Zahnarzttermin wurde auf den 19. Mai verschoben.",
            UPDATE,
        ),
        # A tool for one purpose is not replaced by a tool for another, change announced
        # or not; a value that is itself the detail ("at Accenture") is the one changed.
        (
            "User's team uses Jira for planning.",
            "User's team now uses GitHub Actions for CI.",
            DISTINCT,
        ),
        ("Siobhan works at Accenture.", "Siobhan is at Stripe now.", UPDATE),
        ("Användaren jobbar på Ericsson.", "Användaren jobbar numera på Volvo Cars.", UPDATE),
        # The one spoken of, now named (or dated), with more said of them.
        (
            "User's daughter started university.",
            "User's daughter Freya started studying biology at Edinburgh University.",
            RICHER,
        ),
        ("User's sister Eva lives in Braga.", "User's sister Ana lives in Lisbon.", DISTINCT),
        # Someone named by their tie to another, in any form and word order, is someone
        # else: German capitalises every noun, so "Schwester" is not a surname.
        ("Lukas wohnt in Hamburg.", "Die Eltern von Lukas wohnen in Kiel.", DISTINCT),
        ("Lukas wohnt in Hamburg.", "Die Schwester von Lukas wohnt in Kiel.", DISTINCT),
        ("Lukas wohnt in Hamburg.", "Lukas Schwester wohnt in Kiel.", DISTINCT),
        ("Lukas wohnt in Hamburg.", "Ein Kollege von Lukas wohnt in Kiel.", DISTINCT),
        ("Lukas bor i Hamburg.", "Föräldrarna till Lukas bor i Kiel.", DISTINCT),
        ("Lukas bor i Hamburg.", "Systern till Lukas bor i Kiel.", DISTINCT),
        ("Lukas lives in Hamburg.", "Lukas's parents live in Kiel.", DISTINCT),
        ("Maya lives in Bergen.", "Maya Lindqvist lives in Oslo.", UPDATE),
        # A new job begun, a job since when, a birthday: the attribute's new value.
        ("Erik arbetar på Volvo Cars.", "Erik har börjat på Scania.", UPDATE),
        ("User works at Spotify.", "User started working for Klarna in March.", UPDATE),
        ("Anja arbeitet bei SAP.", "Anja arbeitet seit Oktober bei Zalando.", UPDATE),
        ("Der Nutzer arbeitet bei SAP.", "Der Nutzer arbeitet seit 2019 bei SAP.", RICHER),
        ("User is 41.", "User turned 42 last week.", UPDATE),
        ("User works at Spotify.", "User started at the gym on Monday.", DISTINCT),
        ("User works at Spotify.", "User started working with Python in 2015.", DISTINCT),
        # A note's label that names a single-valued attribute takes the newer value; a
        # label of another kind may head many.
        ("Timezone: CET", "Timezone: PST", UPDATE),
        ("Tidszon: CET", "Tidszon: EST", UPDATE),
        ("Manager: Olga", "Manager: Olga Petrova", RICHER),
        ("Manager: Olga", "Skip-level manager: Ravi", DISTINCT),
        ("Allergies: penicillin", "Allergies: pollen", DISTINCT),
        ("Decision: use Postgres", "Decision: hire Anna", DISTINCT),
        ("Home city: Chicago", "Home city: Denver", UPDATE),
        ("Lieblingsbuch: Der Steppenwolf", "Lieblingsbuch: Die Blechtrommel", UPDATE),
        ("Husdjur: katt", "Husdjur: hund", DISTINCT),  # one word for one pet and several
        ("Favourite books: Dune", "Favourite books: Emma", DISTINCT),
        # The person speaking of themself, in every person and word order.
        ("Ich wohne in Berlin.", "Ich bin nach Köln gezogen.", UPDATE),
        ("Vivo en Madrid.", "Me mudé a Valencia.", UPDATE),
        ("Trabajo en Telefónica.", "Ahora trabajo en BBVA.", UPDATE),
        ("Vivo en Madrid.", "Mi hermana vive en Sevilla.", DISTINCT),
        # One thing named by its id, with or without a word for what it is.
        (
            "Der Server srv-db-01 läuft mit 32 GB RAM.",
            "srv-db-01 wurde auf 64 GB RAM aufgerüstet.",
            UPDATE,
        ),
        ("Servern app-02 kör Debian 11.", "app-02 har uppgraderats till Debian 12.", UPDATE),
        ("Server web-03 runs Ubuntu 22.04.", "web-03 is on Ubuntu 22.04.", SAME),
        # The answer language, said as the order itself.
        ("Antworte dem Nutzer auf Deutsch.", "Antworte dem Nutzer ab sofort auf Englisch.", UPDATE),
        ("Svara användaren på svenska.", "Svara användaren på engelska från och med nu.", UPDATE),
        ("Answer me in English.", "From now on, answer me in German.", UPDATE),
        ("Write the report in Markdown.", "Write the summary in German.", DISTINCT),
        # One thing given up for another, in so many words.
        ("User's car is a 2015 Honda Civic.", "User replaced the Civic with a Mazda CX-5.", UPDATE),
        (
            "Användarens bil är en Volvo V70.",
            "Användaren kör inte längre Volvo utan en Kia Niro.",
            UPDATE,
        ),
        (
            "Das Handy des Nutzers ist ein Pixel 7.",
            "Der Nutzer hat kein Pixel mehr, sondern ein iPhone 16.",
            UPDATE,
        ),
        ("Anna's car is a Volvo.", "User replaced the Volvo with a Kia.", DISTINCT),
        # A tool for another purpose is no choice replacing one.
        ("User uses VS Code for Python.", "User uses IntelliJ for Java.", DISTINCT),
        ("User uses VS Code.", "User uses IntelliJ.", UPDATE),
        # Doing again what one stopped doing takes the stop back.
        ("User no longer drinks coffee.", "User drinks coffee again.", UPDATE),
        ("Der Nutzer raucht nicht mehr.", "Der Nutzer raucht wieder.", UPDATE),
        (
            "The API outage was caused by a bad config.",
            "The API outage on 2 April was caused by a bad nginx config pushed by the edge team.",
            RICHER,
        ),
        # An opening of when says when, not who: the attribute is the speaker's own still,
        # and what it says of anyone else is another fact still.
        ("Mi jefe es Rodrigo Fuentes.", "Desde enero mi jefa es Lucía Herrera.", UPDATE),
        ("I'm vegetarian.", "As of January I've gone fully vegan.", UPDATE),
        ("User speaks Swedish.", "Since 2020 the user has been learning Spanish.", DISTINCT),
        ("The user has a dog named Rex.", "Since last week the user also has a cat.", DISTINCT),
        ("Jag bor i Lund.", "Sedan augusti bor min bror i Malmö.", DISTINCT),
        ("My manager is Karen Lee.", "Since the reorg my mentor is Raj Patel.", DISTINCT),
        ("Ich arbeite bei Siemens.", "Seit April lerne ich Spanisch.", DISTINCT),
        # A person is on one zone's time.
        ("I'm in the Pacific time zone.", "Since moving to Chicago I'm on Central time.", UPDATE),
        ("The user's timezone is CET.", "The user is on Pacific time while in Seattle.", UPDATE),
        ("I fill in my time sheets on Fridays.", "I'm on Central time.", DISTINCT),
        ("Sam lives with his cat Miso in Lisbon.", "Sam's sister lives in Porto.", DISTINCT),
        # Stopped, said by the one who stopped ("habe ich aufgehört", "Dejé el yoga").
        ("Ich rauche etwa fünf Zigaretten am Tag.", "Mit dem Rauchen habe ich aufgehört.", UPDATE),
        ("Voy a clases de yoga los jueves.", "Dejé el yoga, ya no voy.", UPDATE),
        ("Voy a clases de yoga los jueves.", "Dejé el trabajo en Madrid.", DISTINCT),
        ("Ich rauche.", "Meine Schwester hat mit dem Rauchen aufgehört.", DISTINCT),
        # A thing called off, of those the older line is about.
        ("Wir haben ein Netflix-Abo.", "Netflix wurde gekündigt.", UPDATE),
        ("We have a Netflix subscription.", "Netflix was cancelled.", UPDATE),
        ("User's sister has a Netflix subscription.", "Netflix was cancelled.", DISTINCT),
        ("Tom works at Spotify.", "Spotify Premium was cancelled.", DISTINCT),
        # "From now on" announces; another thing's new time is still another thing's.
        (
            "Das Sprint-Review ist freitags um 11 Uhr.",
            "Das Planning ist ab sofort um 15 Uhr.",
            DISTINCT,
        ),
        ("El alquiler del piso es de 850 euros al mes.", "Nos subieron la luz a 90.", DISTINCT),
        (
            "I'm training for a marathon.",
            "I'm training for the Berlin Marathon in September, aiming for under four hours.",
            RICHER,
        ),
        ("I'm training for a marathon.", "My sister is training for a marathon.", DISTINCT),
        # "Works as a nurse at Karolinska" sets the role and the employer: either may change.
        ("Anna works as a nurse at Karolinska.", "Anna works as a doctor at Karolinska.", UPDATE),
        ("Anna works as a nurse at Karolinska.", "Anna now works at Sahlgrenska.", UPDATE),
        ("Anna works as a nurse at Karolinska.", "Anna's husband works at Volvo.", DISTINCT),
        # "Hannah is my wife" names the wife; a sister is one of maybe several.
        ("My wife's name is Hannah.", "Hannah is my wife.", SAME),
        ("My wife's name is Hannah.", "Lisa is my wife now.", UPDATE),
        ("My sister's name is Eva.", "Anna is my sister.", DISTINCT),
        # A compound naming a kind of the thing is more of it ("Schrebergarten").
        (
            "Ich habe einen Garten.",
            "Ich habe einen Schrebergarten in Berlin-Pankow mit Tomaten und Bohnen.",
            RICHER,
        ),
        # An age in words, and in the first person; a weight without a verb.
        ("My daughter Lena is 7 and loves swimming.", "Lena just turned eight.", UPDATE),
        ("Tengo 34 años.", "Ya cumplí 35.", UPDATE),
        ("Mi hija tiene 7 años.", "Mi hermana cumplió 8.", DISTINCT),
        ("I weigh 82 kg.", "Down to 77 kg.", UPDATE),
        ("I weigh 82 kg.", "My dog weighs 30 kg.", DISTINCT),
        # "'s" before an article is "is"; an attribute alone is the person's own.
        ("My phone is a Pixel 6.", "Phone's an iPhone 15 these days.", UPDATE),
        ("Anna's phone is a Pixel 6.", "Phone is an iPhone 15.", DISTINCT),
        ("Anna is a nurse.", "Anna's sister is a doctor.", DISTINCT),
        # A manager however named: "is called", "X is my manager", a cleft, "I report to".
        ("Min chef heter Karin Lund.", "Det är Johan Ek som är min chef nu.", UPDATE),
        ("My manager is Priya Nair.", "Priya left the company, so I report to Tom Becker.", UPDATE),
        ("Min chef är Annika.", "Numera rapporterar jag till Johan.", UPDATE),
        ("My manager is Priya Nair.", "My sister reports to Tom Becker.", DISTINCT),
        # A name right after an opening of when is what the sentence is about, never "the same".
        ("Min chef heter Mats Lindqvist.", "Sedan omorganisationen Sara Ek är min chef.", DISTINCT),
        # A thing sold is no longer had; someone else's sale is theirs.
        (
            "I drive a 2015 Honda Civic.",
            "Sold the Civic; it's a Toyota Corolla Hybrid now.",
            UPDATE,
        ),
        ("Tengo un Seat Ibiza.", "Vendí el Ibiza y me compré un Toyota Corolla híbrido.", UPDATE),
        ("I drive a Honda Civic.", "My brother sold his Civic.", DISTINCT),
        # The same said in another order or form is the same, for a model to confirm;
        # names in other roles, another tense, or a denial are not.
        ("Das Projekt wird von Lena geleitet.", "Lena leitet das Projekt.", SAME),
        ("Soy alérgico a los frutos secos.", "Los frutos secos me dan alergia.", SAME),
        ("Ich trinke keinen Kaffee.", "Kaffee trinke ich nicht.", SAME),
        ("Anna manages Erik.", "Erik manages Anna.", DISTINCT),
        ("Ich trinke keinen Kaffee.", "Kaffee trinke ich.", UPDATE),
        ("Tengo un perro.", "Tenía un perro.", DISTINCT),
        # A change announced of one attribute is no change of another the older line sets;
        # being "at" a place may be at work.
        ("Sam lives in Lisbon.", "Sam works at Spotify now.", DISTINCT),
        ("Sam is based in Lisbon.", "Sam reports to Tom Becker now.", DISTINCT),
        ("Sam is based in Lisbon.", "Sam uses Linear now.", DISTINCT),
        ("Sam is in Lisbon with the cat this week.", "Sam is in Porto now.", UPDATE),
        ("Siobhan works at Accenture.", "Siobhan is at Stripe now.", UPDATE),
        ("User's monthly rent is $1,850.", "Rent went up to $1,990 a month.", UPDATE),
        (
            "Der Nutzer arbeitet bei Siemens als Elektroingenieur.",
            "Der Nutzer ist inzwischen bei Bosch angestellt.",
            UPDATE,
        ),
        # Who leads, and who teaches, however it is said.
        ("Lucía es la responsable del proyecto.", "El proyecto lo dirige Lucía.", SAME),
        ("Carmen es profesora de matemáticas.", "Carmen enseña matemáticas.", SAME),
        ("Maya manages the design team.", "Maya's husband leads the design team.", DISTINCT),
        # A birthday, the car one drives, a due date and a manager, however said.
        ("Mormor fyller år den 17 juni.", "Mormors födelsedag är 17 juni.", SAME),
        ("Mormor fyller år den 17 juni.", "Farmor fyller år den 19 juni.", DISTINCT),
        ("Jonas drives a Volvo XC40.", "Jonas's car is a Volvo XC40.", SAME),
        ("Jonas drives a Volvo XC40.", "Jonas drives a Tesla Model 3 now.", UPDATE),
        ("Jonas drives a Volvo XC40.", "His wife drives a Tesla Model 3.", DISTINCT),
        ("Invoice INV-3307 is due on 2027-04-30.", "INV-3307 has to be paid by 2027-04-30.", SAME),
        ("Faktura 4471 förfaller den 31 mars.", "Faktura 4417 förfaller den 15 april.", DISTINCT),
        ("Johan är Annas chef", "Anna rapporterar till Johan", SAME),
        ("Johan är Annas chef", "Erik är Lisas chef", DISTINCT),
        # A switch to another named thing gives up what the older line says is used or
        # driven, or what a thing is; of what one has, or of a list, it is not sure which.
        ("Tom uses an iPhone 12", "Tom switched to a Pixel 8", UPDATE),
        ("Lisas telefon är en Samsung Galaxy S21.", "Lisa har bytt till en iPhone 15.", UPDATE),
        ("Tom uses an iPhone 12", "His sister switched to a Pixel 8", DISTINCT),
        ("I live in Lisbon with my cat Miso.", "Switched to Vodafone for mobile.", DISTINCT),
        # A role said with where it is held, or become; not a membership, a state or a mood.
        (
            "Jag jobbar som lärare på Rosendalsskolan.",
            "Sedan augusti är jag rektor på Rosendalsskolan.",
            UPDATE,
        ),
        (
            "Användaren jobbar som sjuksköterska på Karolinska.",
            "Användaren har blivit avdelningschef.",
            UPDATE,
        ),
        (
            "Der Nutzer arbeitet als Entwickler bei SAP.",
            "Der Nutzer ist Teamleiter geworden.",
            UPDATE,
        ),
        ("I work as a nurse at Karolinska.", "I'm a member at Friskis.", DISTINCT),
        ("I work as a nurse at Karolinska.", "My sister is a doctor at Karolinska.", DISTINCT),
        # A Swedish name or opening noun with its article is the word said bare.
        ("Jag kör en Volvo V70.", "Sålde Volvon och köpte en Tesla Model Y.", UPDATE),
        (
            "Jag har ett gymkort på Friskis & Svettis.",
            "Gymkortet är uppsagt sedan förra månaden.",
            UPDATE,
        ),
        # A dose of one medicine has one value at a time; another medicine is another.
        (
            "I take 20 mg of lisinopril daily.",
            "My doctor bumped my lisinopril dose up to 40 mg.",
            UPDATE,
        ),
        ("Blutdruckmedikament: Ramipril 5 mg", "Ramipril auf 10 mg erhöht", UPDATE),
        ("I take 20 mg of lisinopril daily.", "I take 5 mg of amlodipine daily.", DISTINCT),
        # "We" is the person speaking with those they live or work with.
        (
            "Vi har bredband från Bahnhof.",
            "Vi har 500/500 Mbit bredband från Bahnhof för 399 kr i månaden.",
            RICHER,
        ),
        (
            "Wir haben ein Ferienhaus.",
            "Wir haben ein Ferienhaus an der Ostsee bei Kühlungsborn.",
            RICHER,
        ),
        ("We have a golden retriever named Pepper.", "We also have a cat called Noodle.", DISTINCT),
        # An amount has one value at a time: said, raised, or where the scale stands.
        ("My rent is $1,450 a month.", "The landlord raised the rent to $1,600.", UPDATE),
        ("Hyran för lägenheten är 8 900 kronor.", "Hyran höjdes till 9 350 kr.", UPDATE),
        ("My rent is $1,450 a month.", "The landlord raised the parking fee to $90.", DISTINCT),
        ("Weight: 82 kg", "Down to 77 kg", UPDATE),
        ("Jag väger 80 kg.", "Ligger på 76 kg nu.", UPDATE),
        ("Max weighs 30 kg.", "I'm at 76 kg now.", DISTINCT),
        # A thing has one price at a time, however each sentence words it; another thing
        # of the same name, or a fee beside the price, is another fact.
        (
            "El precio del menú del día en Casa Pepe es 12 euros",
            "En Casa Pepe el menú del día ya cuesta 14 euros",
            UPDATE,
        ),
        (
            "Mein Handyvertrag bei O2 kostet 25 Euro im Monat.",
            "Der O2-Vertrag kostet ab sofort 29,99 Euro monatlich.",
            UPDATE,
        ),
        (
            "My car insurance with Allianz costs 92 euros a month.",
            "The Allianz car insurance premium is 104 euros monthly starting in January.",
            UPDATE,
        ),
        (
            "My car insurance with Allianz costs 92 euros a month.",
            "Our Allianz home insurance costs 15 euros a month.",
            DISTINCT,
        ),
        (
            "El menú del día en Casa Pepe cuesta 12 euros",
            "En Casa Pepe la paella cuesta 18 euros",
            DISTINCT,
        ),
        (
            "Mein Handyvertrag bei O2 kostet 25 Euro im Monat.",
            "Der O2-Festnetzvertrag kostet 19 Euro im Monat.",
            DISTINCT,
        ),
        ("The Netflix plan costs 12 euros", "Spotify costs 12 euros", DISTINCT),
        # A change announced of a thing by its name alone is a change of the one thing of
        # that name the older line gives an owner ("the kids'": a plural's, not a verb's).
        (
            "The kids' swim lessons are on Saturdays at 10 at the Westside pool.",
            "Swim lessons switched to Sunday mornings.",
            UPDATE,
        ),
        ("The kids swim on Saturdays.", "The kids swim on Sundays now.", UPDATE),
        (
            "The kids' swim lessons are on Saturdays.",
            "Anna's swim lessons moved to Sunday.",
            DISTINCT,
        ),
        # One's team lead is one's manager; a skip-level manager is someone else.
        (
            "Ingrid's team lead is Paolo Ricci.",
            "Ingrid now reports to Sunita Rao after the reorg.",
            UPDATE,
        ),
        ("User's team lead is Ravi Patel.", "User's skip-level manager is Chloe Martin.", DISTINCT),
        # A diet is a diet's word: "allergic to peanuts" is no new one (it had replaced
        # "is vegetarian", and the diet was lost); a preposition's article is read past.
        ("User is vegetarian", "User is allergic to peanuts", DISTINCT),
        ("Thomas arbeitet bei der Telekom", "Thomas ist inzwischen bei SAP", UPDATE),
        # A time said first is when, not who ("Varje måndag klockan 9 har vi ..."), and a
        # language spoken is one idea however it is said ("pratar", "talar").
        (
            "Vi har veckomöte varje måndag kl. 9",
            "Varje måndag klockan 9 har vi vårt veckomöte",
            RICHER,
        ),
        (
            "Vi har veckomöte varje måndag kl. 9",
            "Varje tisdag klockan 9 har Sara pianolektion",
            DISTINCT,
        ),
        ("Sara pratar flytande spanska", "Sara talar spanska flytande", SAME),
        ("Sara talar spanska", "Sara pratar tyska", DISTINCT),
        # "Our" in every language is grammar, as the English one is.
        (
            "Nuestro alquiler es de 850 euros al mes.",
            "Ahora pagamos 900 euros de alquiler.",
            UPDATE,
        ),
        ("Vår hund heter Sixten.", "Hunden heter faktiskt Sigge.", UPDATE),
        # One parent, however they are called; the other parent is someone else.
        ("My father lives in Leeds", "My dad lives in York now", UPDATE),
        ("Min pappa bor i Lund", "Min mamma bor i Malmö", DISTINCT),
        ("Mi abuela vive en Sevilla", "Mi abuelo vive ahora en Cádiz", DISTINCT),
        ("Mi esposa vive en Sevilla", "Mi esposo vive ahora en Cádiz", DISTINCT),
        ("Mi padre vive en Sevilla.", "Mi papá vive ahora en Cádiz.", UPDATE),
        ("Mi madre vive en Sevilla", "Mi papá vive ahora en Cádiz", DISTINCT),
        # "Actually" in every language, wherever it stands, corrects the record.
        ("Unser Hund heißt Bello.", "Unser Hund heißt eigentlich Rex.", UPDATE),
        ("Vår hund heter Sixten.", "Hunden heter faktiskt Sigge.", UPDATE),
        ("Min hund heter Sixten.", "Min katt heter faktiskt Sigge.", DISTINCT),
        # A verb said of oneself, its pronoun left out, is about the one speaking.
        ("Uso Android.", "Me pasé a iPhone.", UPDATE),
        ("Uso Android.", "Mi hermana usa un iPhone.", DISTINCT),
        # A change announced of one thing both name: a value or a name in its one place,
        # however the new statement is ordered.
        (
            "La reunión semanal del equipo es a las 11:00",
            "Es a las 12:30 cuando tenemos ahora la reunión semanal",
            UPDATE,
        ),
        (
            "My rent is 1,450 dollars a month",
            "Landlord raised the rent, it's 1,520 dollars a month starting in July",
            UPDATE,
        ),
        ("Ansvarig för lönerna är Karin", "Det är faktiskt Mattias som sköter lönerna nu", UPDATE),
        (
            "El veterinario de nuestra perra Lola es la doctora Ruiz",
            "Ahora llevamos a Lola a la clínica del doctor Méndez",
            UPDATE,
        ),
        ("Min chef heter Karin Lund.", "Numera är det Anders Berg som är min chef.", UPDATE),
        (
            "Our housewarming party is on Saturday, June 7.",
            "We postponed the housewarming to June 21.",
            UPDATE,
        ),
        # ... but not of another one of them, another member, another place or another one
        # named in the subject.
        ("Kenji leads Atlas", "Farah now leads Hermes", DISTINCT),
        ("Sam has a cat named Miso", "Sam moved to Porto", DISTINCT),
        ("The London office closes at 6pm", "The New York office closes at 7pm", DISTINCT),
        ("Ethan went to Iceland in 2019.", "Ethan went to Morocco last spring.", DISTINCT),
        ("Sam's football practice is on Wednesdays", "Sam's swimming moved to Mondays", DISTINCT),
        ("The standup is at 09:30", "The retro now starts at 14:00", DISTINCT),
        ("The project budget is 20000 euros", "The marketing budget rose to 25000 euros", DISTINCT),
        # A move of someone named as one of the person's is no news of their cat.
        (
            "Mi compañero Andrés tiene un gato llamado Chispa.",
            "Andrés se mudó a Granada.",
            DISTINCT,
        ),
        ("Mi hermano tiene un perro llamado Toby", "Mi hermano se mudó a Sevilla", DISTINCT),
        # A question and its answer say what the answer says ...
        ("Onkel Rudi wohnt in Graz.", "Wo lebt Onkel Rudi? In Graz.", SAME),
        ("Oskar bor i Västerås.", "Var bor Oskar? I Västerås.", SAME),
        ("Sofía trabaja en Inditex", "¿Que dónde trabaja Sofía? En Inditex.", SAME),
        ("Oskar bor i Västerås.", "Var bor Oskar nu? I Uppsala.", UPDATE),
        ("Sofía trabaja en Inditex", "¿Dónde trabaja Sofía ahora? En Zara.", UPDATE),
        # ... and a thing put first, what is said of it ("Pork is something I never eat").
        ("I don't eat pork.", "Pork is something I never eat.", SAME),
        ("I don't drink coffee", "Coffee isn't something I drink", SAME),
        ("I drink coffee", "Coffee isn't something I drink", UPDATE),
        ("Hon är trött", "Hon är något trött", DISTINCT),  # "något" is "somewhat" here
        # One idea however it is said: an employer, a name, being retired, what is used.
        ("Jag jobbar på Ericsson.", "Ericsson är min arbetsgivare.", SAME),
        ("Min pappa heter Göran.", "Göran är min pappas namn.", SAME),
        ("Mi abuela se llama Rosario.", "Rosario es el nombre de mi abuela.", SAME),
        ("Mein Vater ist Rentner", "Papa ist in Rente", SAME),
        (
            "Das Projekt Kompass nutzt Kubernetes.",
            "Kubernetes wird im Projekt Kompass eingesetzt.",
            SAME,
        ),
        ("Min pappa heter Göran.", "Min morbror heter Göran.", DISTINCT),
        # One's doctor, vet or dentist is one at a time, each of its owner.
        ("My doctor is Dr. Hughes.", "Actually, my GP is Dr. Moreno.", UPDATE),
        ("My doctor is Dr. Hughes.", "My dentist is Dr. Moreno.", DISTINCT),
        ("Miso's vet is Dr. Patel.", "My vet is Dr. Moreno.", DISTINCT),
        # One's employer named is where one works.
        ("Mein Arbeitgeber ist Siemens.", "Ich arbeite jetzt bei Bosch.", UPDATE),
        # How often, said first, is when, not what it is about.
        ("Jag tränar två gånger i veckan.", "Två gånger per vecka tränar jag.", RICHER),
        ("Unser Daily ist um 9 Uhr.", "Das Daily wurde auf 9:45 Uhr verschoben.", UPDATE),
        ("Die Miete beträgt 890 Euro warm.", "Wir zahlen jetzt 945 Euro warm.", UPDATE),
        ("Jag jobbar på Ericsson.", "Ericsson är min kund.", DISTINCT),
    ],
)
def test_the_relation_of_a_pair(old: str, new: str, relation: Relation) -> None:
    assert judge(old, new).relation is relation, judge(old, new).reason


def test_one_of_a_list_stopped_is_for_a_model_or_a_person() -> None:
    verdict = judge("Anna plays tennis and chess.", "Anna stopped playing chess.")
    assert verdict.relation is UPDATE and not verdict.sure


def test_52_look_alike_facts_are_52_facts() -> None:
    facts = [f"Eve's profile detail {n} about topic {n % 7} is value {3 * n}" for n in range(52)]
    assert all(judge(a, b).relation is DISTINCT for a, b in combinations(facts, 2))


def test_a_verdict_says_why() -> None:
    assert judge("Invoice 4411 is for €300.", "Invoice 4411 is actually for €350.").reason == (
        "a new amount"
    )
    assert judge("Maya lives in Oslo", "Maya lives in Bergen").reason == "a new place"
    assert "someone" in judge("Sam lives in Porto", "Sam's sister Ana lives in Braga").reason


def test_the_demo_memory_holds_few_changes_and_the_cutover_correction_is_one() -> None:
    # Every pair of remembered lines in the bundled agent: real, messy, several people.
    demo = pristine.demo()
    lines = [
        line
        for path in [
            demo / "MEMORY.md",
            demo / "PROFILE.md",
            *sorted((demo / "memory").glob("*.md")),
        ]
        for line in path.read_text(encoding="utf-8").splitlines()
        if re.match(r"\s*[-*] ", line)
    ]
    judged = [(a, b, judge(a, b).relation) for a, b in combinations(lines, 2)]
    updates = [(a, b) for a, b, relation in judged if relation is UPDATE]
    assert len(lines) > 100 and len(updates) <= 8
    assert any("2026-12-05, 06:00" in a and b.startswith("- Correction:") for a, b in updates)
    assert sum(relation is not DISTINCT for _, _, relation in judged) <= 20


@pytest.mark.parametrize(
    "text",
    [
        "Correction: the cutover moved to 2026-12-19.",
        "Actually it's Thursday.",
        "Not Bergen but Trondheim.",
        "The launch moved to March.",
        "He no longer works there.",
        "Rättelse: mötet är på onsdag.",
        "Mötet är inte på tisdag utan på onsdag.",
        "Das Meeting wurde verschoben.",
        "Corrección: la entrega se movió al lunes.",
    ],
)
def test_corrections_announce_themselves(text: str) -> None:
    assert is_correction(text)


@pytest.mark.parametrize(
    "text", ["Maya lives in Oslo.", "The cutover is on Saturday.", "Kenji reviews the PR."]
)
def test_plain_statements_are_no_corrections(text: str) -> None:
    assert not is_correction(text)


def test_what_a_statement_is_about_is_read_from_its_words() -> None:
    from memclaw.judgement.claims import read

    assert read("Standup moved to 9:45 starting Monday.").frame("place") is None  # a time

    assert read("User commutes to work by bike.").frame("employer") is None  # work, a noun
    assert read("Leo is employed by Volvo.").frame("employer") is not None
    assert read("User cycles to work.").words[read("User cycles to work.").verb or 0].text == (
        "cycles"
    )
    # A time said first is when, not who: the subject is the team.
    assert read("Every other Friday the team holds its retro.").subject == {"team"}
    # How long a thing is kept is no passing constraint; a month without running is.
    assert not read("App logs are kept for 30 days.").temporary
    assert read("User can't run for a month.").temporary
    # After "I'm" the doing is the word in -ing.
    assert read("I'm training for a marathon.").subject == {"user"}


def test_the_user_is_named_in_the_words_of_the_statements_language() -> None:
    from memclaw.judgement.words import keys, words

    assert "user" in keys(words("I pay 900 a month.", "english"))
    assert "user" in keys(words("Jag betalar 900 kronor i månaden.", "swedish"))
    # Swedish "i" is "in", an English "min" a minute: neither is the person.
    assert "user" not in keys(words("Hyran är 8 900 kronor i månaden.", "swedish"))
    assert "user" not in keys(words("The standup takes 15 min.", "english"))


def test_another_person_is_surely_another_fact_another_word_for_a_thing_may_not_be() -> None:
    assert judge("Sam lives in Porto.", "Sam's sister Ana lives in Braga.").sure
    assert judge("Invoice 4411 was paid.", "Invoice 4412 was paid.").sure
    paraphrase = judge("User's car is the office's Skoda.", "User drives the office's Skoda.")
    assert paraphrase.relation is DISTINCT and not paraphrase.sure  # a model, if any, decides
    # The car one drives is one's car.
    car = judge("User's car is a grey Skoda Octavia.", "User drives a grey Skoda Octavia.")
    assert car.relation is SAME and car.sure
    # The names each subject holds are both said by the other: the same people and things,
    # arranged otherwise (a project leader leads): the same, for a model to confirm.
    swapped = judge(
        "Projektet Fenix leds av Maria Ström.", "Maria Ström är projektledare för Fenix."
    )
    assert swapped.relation is SAME and not swapped.sure
    # One verb for another over the same things may be other words for one fact.
    for old, new in [
        ("User commutes to work by bike.", "User cycles to work."),
        ("Yosef commutes by ferry.", "Yosef takes the ferry to work."),
    ]:
        assert not judge(old, new).sure, (old, new)
    backup = "The nightly backup of the orders database runs at 02:00 on server {}."
    assert judge(backup.format("alpha"), backup.format("beta")).sure


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The team uses Jira.", "The other team uses Jira."),
        ("The other team uses Jira.", "The team uses Jira."),
        ("My brother lives in Oslo.", "My other brother lives in Oslo."),
        ("The server runs Ubuntu.", "Another server runs Ubuntu."),
        ("Teamet använder Jira.", "Det andra teamet använder Jira."),
        ("Das Team nutzt Jira.", "Das andere Team nutzt Jira."),
        ("El equipo usa Jira.", "El otro equipo usa Jira."),
        ("The old laptop has 8 GB RAM.", "The new laptop has 8 GB RAM."),
        ("Den gamla bilen är röd.", "Den nya bilen är röd."),
        ("Der alte Laptop hat 8 GB RAM.", "Der neue Laptop hat 8 GB RAM."),
        ("El coche viejo es rojo.", "El coche nuevo es rojo."),
    ],
)
def test_the_other_one_is_surely_another_fact(old: str, new: str) -> None:
    # (Read as the same statement, the second would have been lost as "already known".)
    verdict = judge(old, new)
    assert verdict.relation is DISTINCT and verdict.sure


@pytest.mark.parametrize(
    ("old", "new", "relation"),
    [
        # One lead, owner or person responsible at a time: another is the role handed on.
        (
            "Lukas ist für das Release verantwortlich.",
            "Für das Release ist inzwischen Mira zuständig.",
            UPDATE,
        ),
        ("Tom owns the migration task.", "The migration task was handed over to Leila.", UPDATE),
        ("El proyecto Faro lo lleva Marta.", "Es Diego quien lleva el proyecto Faro.", UPDATE),
        ("Karin ansvarar för lönerna.", "Numera sköter Mattias lönerna.", UPDATE),
        (
            "The on-call rotation for the payments service is handled by Team Kestrel.",
            "Team Heron handles on-call for payments.",
            UPDATE,
        ),
        # Another thing led, one more holder, or things owned: no role changed hands.
        ("Anna leads the frontend team.", "Tom leads the backend team.", DISTINCT),
        ("Project Atlas is led by Farah.", "Project Orion is led by Farah.", DISTINCT),
        ("Anna leads the migration.", "Tom also leads the migration.", DISTINCT),
        ("User owns a Kindle Paperwhite.", "User owns an iPad Air.", DISTINCT),
        ("Priya manages the Berlin office.", "Tom manages the London office.", DISTINCT),
    ],
)
def test_a_role_has_one_holder_at_a_time(old: str, new: str, relation: Relation) -> None:
    assert judge(old, new).relation is relation


@pytest.mark.parametrize(
    ("old", "new", "may"),
    [
        ("Lorena es profesora de matemáticas.", "Lorena da clases de matemáticas.", True),
        ("The deploy pipeline runs on GitHub Actions.", "GitHub Actions is used for it.", True),
        ("Server alpha runs nightly.", "Server beta runs nightly.", False),  # a word swapped
        ("User's manager is Karin.", "User's former manager is Karin.", False),  # one added
        ("The kids used to walk to school.", "The kids walk to school.", False),  # tense
        ("Sam no longer eats meat.", "Sam eats meat.", False),  # a change announced
        ("Sam doesn't eat meat.", "Sam eats meat every day.", False),  # negation
        ("The gym is closed for a week.", "The gym is closed.", False),  # passing
        ("The retro is on Friday at 10.", "Every Thursday at 10 we hold the retro.", False),
    ],
)
def test_what_the_words_tell_apart_is_never_other_words(old: str, new: str, may: bool) -> None:
    assert may_say_it_otherwise(old, new) is may


def test_what_held_before_is_no_longer_and_never_the_same_as_now() -> None:
    # Said of the past now: no longer so (both had been "the same place").
    for old, new in [
        ("I live in Berlin.", "I used to live in Berlin."),
        ("Ich wohne in Köln.", "Ich wohnte früher in Köln."),
        ("Sam works at Spotify.", "Sam used to work at Spotify."),
    ]:
        verdict = judge(old, new)
        assert verdict.relation is UPDATE and verdict.sure, (old, new)
    # Where one lived, said in the past: maybe no longer, maybe once; a model or a person
    # says (it had been "the same place").
    for old, new in [
        ("Grandma lives in Lund.", "Grandma lived in Lund."),
        ("Jag bor i Malmö.", "Jag bodde i Malmö som barn."),
    ]:
        verdict = judge(old, new)
        assert verdict.relation is UPDATE and not verdict.sure, (old, new)
    # The past, then the present: both may hold (moved back), and neither is lost.
    again = judge("Jag bodde förut i Malmö.", "Jag bor i Malmö.")
    assert again.relation is DISTINCT and not again.sure


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("La abuela vive en Sevilla.", "El abuelo vive en Sevilla."),
        ("Mi hermana trabaja en Madrid.", "Mi hermano trabaja en Madrid."),
        ("Mi hija estudia medicina.", "Mi hijo estudia medicina."),
        ("Meine Partnerin arbeitet bei Siemens.", "Mein Partner arbeitet bei Siemens."),
        ("Meine Kollegin wohnt in Bonn.", "Mein Kollege wohnt in Bonn."),
    ],
)
def test_a_kin_words_gender_is_another_person(old: str, new: str) -> None:
    # The stem folds the ending away ("abuel"): the grandfather had been lost as "the same".
    verdict = judge(old, new)
    assert verdict.relation is DISTINCT and verdict.sure


def test_a_wish_or_a_plan_is_not_yet_what_is() -> None:
    for old, new in [
        ("User wants to learn Japanese.", "User is learning Japanese."),
        ("User plans to visit Peru.", "User visited Peru."),
        ("Anna might move to Oslo.", "Anna is moving to Oslo."),
        ("I'd like to move to Oslo.", "I moved to Oslo."),
        ("Användaren vill lära sig japanska.", "Användaren lär sig japanska."),
        ("El usuario quiere aprender japonés.", "El usuario aprende japonés."),
    ]:
        verdict = judge(old, new)  # had been the same: the plan come true was lost
        assert verdict.relation is UPDATE and verdict.sure, (old, new)
    again = judge("User visited Peru.", "User wants to visit Peru again.")
    assert again.relation is DISTINCT
    # A wish for a thing is a preference, not a plan.
    said = judge("User prefers concise answers without fluff.", "User wants answers to be concise.")
    assert said.relation is SAME


def test_how_much_or_how_many_said_anew_is_news() -> None:
    for old, new in [
        ("All servers run Ubuntu.", "Some servers run Ubuntu."),
        ("User eats fish.", "User only eats fish."),
    ]:
        verdict = judge(old, new)  # had been the same, and the news lost
        assert verdict.relation is UPDATE and verdict.sure, (old, new)
    assert judge("User only eats fish.", "User eats fish.").relation is SAME  # says less


def test_a_change_said_of_nothing_but_the_person_changes_nothing_else() -> None:
    # "Now" shared only with "I": it had replaced the diet, which was lost.
    for old, new in [
        ("Jag är vegetarian.", "Jag läser italienska på kvällarna nu."),
        ("I'm vegetarian.", "I'm learning Italian now."),
        ("Ich bin Vegetarier.", "Ich spiele wieder Tennis."),
        ("Jag är vegetarian.", "Jag spelar tennis igen."),
        ("I live in Oslo.", "I have a new bike."),
        ("Sam lives in Lisbon.", "Sam stopped playing chess."),
        ("Lisa har en häst.", "Lisa har flyttat till Eskilstuna."),
        ("Jonas hat zwei Katzen.", "Jonas arbeitet jetzt bei Vodafone."),
    ]:
        assert judge(old, new).relation is DISTINCT, (old, new)
    # A change said in other words than "now" still is one.
    assert judge("El usuario es fumador.", "El usuario ya no fuma desde enero.").disagrees
    assert judge("Jag dricker inte alkohol.", "Jag har börjat dricka vin igen.").disagrees
    assert judge("Jonas fotografiert gern.", "Jonas hat mit dem Fotografieren aufgehört.").disagrees
    assert judge("Jonas nutzt Obsidian.", "Jonas ist auf Logseq umgestiegen.").disagrees
    assert judge("Netflix is something we pay for.", "Netflix was cancelled.").disagrees


def test_now_new_or_again_said_of_a_thing_changes_nothing_else_of_it() -> None:
    for old, new in [
        ("The company offsite is in Lisbon.", "The company offsite has a new agenda."),
        ("The staging server runs Ubuntu.", "The staging server was rebooted again."),
        ("The weekly sync is on Mondays at 10.", "The weekly sync now has a new agenda."),
    ]:
        assert judge(old, new).relation is DISTINCT, (old, new)  # had replaced the older line
    # Its value in its place, or a change said in other words, still is one.
    for old, new in [
        ("The primary database is db-prod-1.", "The primary database is now db-prod-2."),
        ("The company offsite is in Lisbon.", "The company offsite is in Porto now."),
        (
            "The internal API gateway is called Hermes.",
            "The internal API gateway was renamed to Iris.",
        ),
    ]:
        assert judge(old, new).relation is UPDATE, (old, new)


def test_every_other_friday_is_not_another_friday() -> None:
    verdict = judge(
        "The team retro happens every second Friday.",
        "Every other Friday the team holds its retro.",
    )
    assert verdict.reason != "about another one of them"


@pytest.mark.parametrize(
    ("old", "new", "line"),
    [
        # A day and a time moved together are both the new ones (the day was lost).
        (
            "Styrelsemötet är på torsdag klockan 15",
            "Styrelsemötet är flyttat till fredag klockan 9",
            "Styrelsemötet är på fredag klockan 9",
        ),
        # What is taken back is what is denied; the allergy stays (it was cut to "to peanuts").
        (
            "Elena is vegetarian and allergic to peanuts",
            "Elena is no longer vegetarian; she eats fish now",
            "Elena is no longer vegetarian; she eats fish now, and allergic to peanuts",
        ),
        # Whose job it is, past an aside that says who she is; where a ticket stands.
        (
            "Frau Weber, Mutter von zwei Kindern, arbeitet bei Siemens",
            "Frau Weber arbeitet jetzt bei Bosch",
            "Frau Weber, Mutter von zwei Kindern, arbeitet bei Bosch",
        ),
        (
            "Ticket OPS-1182 is in review, assigned to Dana",
            "OPS-1182 is done",
            "Ticket OPS-1182 is done, assigned to Dana",
        ),
        (
            "Anna ernährt sich vegan und läuft jeden Morgen fünf Kilometer",
            "Anna isst inzwischen wieder Fleisch",
            "Anna isst inzwischen wieder Fleisch, und läuft jeden Morgen fünf Kilometer",
        ),
        (
            "Projektet Falken har status grön",
            "Projektet Falken har status röd",
            "Projektet Falken har status röd",
        ),
        # A short name engineers give the same thing is that thing.
        (
            "The staging database runs on PostgreSQL 13 on host db-stg-01",
            "Staging DB was upgraded to PostgreSQL 15",
            "The staging database runs on PostgreSQL 15 on host db-stg-01",
        ),
        # The new amount takes the old one's place; the due date after it is no amount.
        (
            "Invoice INV-2231 is for €1,200 and is due on 30 June.",
            "Invoice INV-2231 is actually for €1,450.",
            "Invoice INV-2231 is for €1,450 and is due on 30 June.",
        ),
        (
            "Server beta runs Postgres 16 on port 5433",
            "Server beta now runs on port 5434",
            "Server beta runs Postgres 16 on port 5434",
        ),
        (
            "Användarens bil är en Volvo V70.",
            "Användaren kör inte längre Volvo utan en Kia Niro.",
            "Användaren kör inte längre Volvo utan en Kia Niro.",
        ),
        (
            "Faktura 2024-118 på 8 400 kr förfaller den 28 februari.",
            "Faktura 2024-118 är egentligen på 9 100 kr.",
            "Faktura 2024-118 på 9 100 kr förfaller den 28 februari.",
        ),
        # A compound the other says apart: the line is built as the judge read it, and
        # written as it was said ("kl 18:00" stays).
        (
            "Styrelsemötet är den 2027-03-12 kl 18:00",
            "Mötet med styrelsen flyttades till 2027-03-19",
            "Styrelsemötet är den 2027-03-19 kl 18:00",
        ),
        (
            "Mötet med styrelsen flyttades till 2026-12-19",
            "Styrelsemötet flyttades till 2026-12-26.",
            "Mötet med styrelsen flyttades till 2026-12-26",
        ),
        (
            "Meine Kollegin Petra arbeitet bei Siemens in München",
            "Petra arbeitet jetzt bei Bosch",
            "Meine Kollegin Petra arbeitet bei Bosch in München",
        ),
        # The whole name gives way, not its first word ("Volvo Cars").
        (
            "Tomas Ek arbetar på Volvo Cars",
            "Tomas Ek jobbar numera på Ericsson",
            "Tomas Ek arbetar på Ericsson",
        ),
        (
            "Server beta runs Postgres 15 on port 5433",
            "Server beta now uses port 5434",
            "Server beta runs Postgres 15 on port 5434",
        ),
        # A change said of a thing by its head alone is a change of the thing the older
        # line names in full; what it is for and where stays.
        (
            "User's rent is $1,450 per month for the flat on Elm Street.",
            "The rent went up to $1,600.",
            "User's rent is $1,600 per month for the flat on Elm Street.",
        ),
        (
            "Hyran för lägenheten på Söder är 9 800 kronor i månaden.",
            "Hyran har höjts till 10 350 kronor.",
            "Hyran för lägenheten på Söder är 10 350 kronor i månaden.",
        ),
        (
            "El alquiler del piso de Chamberí es de 1.100 euros al mes.",
            "El alquiler subió a 1.250 euros.",
            "El alquiler del piso de Chamberí es de 1.250 euros al mes.",
        ),
        (
            "Elena is vegetarian and allergic to peanuts.",
            "Elena is no longer vegetarian.",
            "Elena is no longer vegetarian, and allergic to peanuts.",
        ),
        ("Anna smokes a pack a day.", "Anna quit smoking.", "Anna quit smoking."),
        (
            "Pappa röker på balkongen varje kväll.",
            "Pappa har slutat röka!",
            "Pappa har slutat röka!",
        ),
        # A new day keeps the time it did not change, said or not ("samma klockslag").
        (
            "Tandläkartiden är den 3 oktober klockan 14.00.",
            "Tandläkaren ringde, tiden är flyttad till 10 oktober, samma klockslag.",
            "Tandläkartiden är den 10 oktober klockan 14.00.",
        ),
        (
            "La reunión con el cliente de Bilbao es el lunes 8 a las 10:00.",
            "La reunión con el cliente de Bilbao se aplazó al miércoles 10, misma hora.",
            "La reunión con el cliente de Bilbao es el miércoles 10 a las 10:00.",
        ),
        # The kind it was used as goes with the old thing.
        (
            "Jag använder en Samsung Galaxy S21 som mobil.",
            "Min telefon är numera en Fairphone 5.",
            "Min telefon är numera en Fairphone 5.",
        ),
        # A decimal comma is part of the number, and a word like "actually" may stand
        # between the verb and the value.
        (
            "Katten Sigge väger 6 kilo.",
            "Sigge väger faktiskt 5,4 kilo.",
            "Katten Sigge väger 5,4 kilo.",
        ),
        (
            "Our cat Biscuit weighs 4.2 kg.",
            "Biscuit is 5.1 kg now.",
            "Our cat Biscuit weighs 5.1 kg.",
        ),
        (
            "Unsere Schildkröte Kurt ist 12 Jahre alt.",
            "Kurt ist mittlerweile 13.",
            "Unsere Schildkröte Kurt ist 13 Jahre alt.",
        ),
        # Who lives there with the one who moved stays; so does who the one who moved is.
        (
            "Meine Schwester Julia wohnt mit ihren zwei Kindern in Köln.",
            "Julia ist nach Hamburg gezogen.",
            "Meine Schwester Julia ist nach Hamburg gezogen, mit ihren zwei Kindern.",
        ),
        (
            "Anna bor med sin man i Lund.",
            "Anna har flyttat till Malmö.",
            "Anna bor med sin man i Malmö.",
        ),
        (
            "Das Sprint-Review ist immer freitags um 11 Uhr.",
            "Das Review findet ab sofort donnerstags um 15 Uhr statt.",
            "Das Sprint-Review findet ab sofort donnerstags um 15 Uhr statt.",
        ),
        # A new employer keeps the role ("same role as before"), and the move's own words.
        (
            "I work as a backend developer at Klarna.",
            "Started at Spotify on Monday, same role as before.",
            "I work as a backend developer at Spotify, on Monday, same role as before.",
        ),
        (
            "Sam lives in Lisbon with his cat Miso.",
            "Sam moved to Porto last month.",
            "Sam moved to Porto last month, with his cat Miso.",
        ),
        # Only a number is new: it goes where the old one was.
        (
            "El alquiler del piso es de 850 euros al mes.",
            "Nos subieron el alquiler a 920.",
            "El alquiler del piso es de 920 euros al mes.",
        ),
        # An amount's unit stays with it ("per month").
        (
            "My rent is $1,450 per month for the flat on Elm Street.",
            "The landlord raised the rent to $1,600.",
            "My rent is $1,600 per month for the flat on Elm Street.",
        ),
        # The article goes with the new value ("a Pixel", "an iPhone").
        (
            "My phone is a Pixel 6 in a green case.",
            "Phone's an iPhone 15 these days.",
            "My phone is an iPhone 15 in a green case.",
        ),
        (
            "My laptop is an Asus Zenbook.",
            "My laptop is now a MacBook Air.",
            "My laptop is a MacBook Air.",
        ),
        # What the newer one names as what held before is gone, with what was said of it
        # (it had been "... he's at IKEA now, at Spotify as a data engineer").
        (
            "Tom works at Spotify as a data engineer.",
            "Tom used to work at Spotify; he's at IKEA now.",
            "Tom used to work at Spotify; he's at IKEA now.",
        ),
        # A move takes the old home's named place with it, and its article where the new
        # value brings one or names the place ("i en ett radhus", "in a Leipzig" before).
        (
            "Vi bor i en trea på Södermalm.",
            "Vi har flyttat till ett radhus i Nacka.",
            "Vi bor i ett radhus i Nacka.",
        ),
        ("I live in a flat in Kreuzberg.", "I moved to Leipzig.", "I live in Leipzig."),
        # A "!" inside a name is part of it (the line had read "Deco X50!Box 7530").
        (
            "User's Wi-Fi router is a Fritz!Box 7530.",
            "User's Wi-Fi router is now a TP-Link Deco X50.",
            "User's Wi-Fi router is a TP-Link Deco X50.",
        ),
        # A code given anew takes the old one's place, and a switch leaves whom it was with.
        (
            "Vuelo a Buenos Aires: 3 de marzo, Iberia IB6841.",
            "Vuelo a Buenos Aires cambiado: ahora 5 de marzo con Aerolíneas Argentinas AR1133.",
            "Vuelo a Buenos Aires cambiado: ahora 5 de marzo con Aerolíneas Argentinas AR1133.",
        ),
        (
            "Strompreis: 32 Cent/kWh bei Vattenfall",
            "Wir haben zu EnBW gewechselt, 28 Cent pro kWh.",
            "Wir haben zu EnBW gewechselt, 28 Cent pro kWh.",
        ),
        # "Neuer Hausarzt" is the doctor, now another.
        (
            "Hausarzt: Dr. Schneider, Praxis am Markt",
            "Neuer Hausarzt: Dr. Yilmaz, Bahnhofstraße 12",
            "Hausarzt: Dr. Yilmaz, Bahnhofstraße 12",
        ),
    ],
)
def test_a_correction_keeps_every_other_detail(old: str, new: str, line: str) -> None:
    assert judge(old, new).relation is UPDATE
    assert merged(old, new).text == line


@pytest.mark.parametrize(
    ("old", "new", "relation"),
    [
        # A note that names no one is the person's own, however its attribute is said.
        ("Timezone: CET", "User's timezone is CET.", SAME),
        ("Favourite film: Alien.", "Favourite film is actually Blade Runner.", UPDATE),
        ("Timezone: CET", "Maya's timezone is PST.", DISTINCT),
        # The word for the attribute is not its owner: the home is where the user lives.
        ("Användaren bor i Malmö.", "Användarens hem ligger i Malmö.", SAME),
        ("Der Nutzer wohnt in Leipzig.", "Der Wohnort des Nutzers ist Leipzig.", SAME),
        ("User lives in Munich.", "User's office is in Berlin.", DISTINCT),
        # A German genitive name is the name; "Jonas' Eltern" are Jonas's.
        ("Annas Bruder heißt Felix.", "Der Bruder von Anna heißt Felix.", SAME),
        ("Die Eltern von Jonas wohnen in Bremen.", "Jonas' Eltern sind nach Kiel gezogen.", UPDATE),
        ("Anna wohnt in Kiel.", "Annas Bruder wohnt in Bonn.", DISTINCT),
        # Details after the subject, set apart, are more said of the same thing.
        (
            "Faktura 2025-044 är obetald.",
            "Faktura 2025-044 på 12 500 kr från Byggab är obetald.",
            RICHER,
        ),
        (
            "Invoice INV-5120 is overdue.",
            "Invoice INV-5120 (€2,340, from Nordic Print AB) is overdue since 1 February.",
            RICHER,
        ),
        ("Invoice 4411 from Acme was paid.", "Invoice 4412 from Acme was paid.", DISTINCT),
        ("Sam's sister is a doctor.", "Sam's sister's husband is a doctor.", DISTINCT),
        # A compound says what its parts say apart.
        (
            "Mötet med styrelsen är den 3 april.",
            "Styrelsemötet har flyttats till den 17 april.",
            UPDATE,
        ),
        ("Das Meeting mit dem Kunden ist am 5. Mai.", "Das Kundenmeeting ist am 5. Mai.", SAME),
        ("Lena hat einen Hund.", "Lena hat eine Hundeallergie.", DISTINCT),
        # A verb done again to the same end is the verb, changed: not one read again.
        ("Ticket SUP-4410 is assigned to Ravi.", "SUP-4410 has been reassigned to Claire.", UPDATE),
        ("User reads a lot of fantasy.", "User reread The Hobbit.", DISTINCT),
        # A label's owner is the one it names, its other words name the attribute.
        ("User's relationship status: married.", "User got divorced last year.", UPDATE),
        ("User is single.", "User is in a relationship with Marco since March.", UPDATE),
        ("Maya's diet: vegan", "User is vegetarian.", DISTINCT),
        # "en realidad" is "actually": it names no one.
        (
            "Factura F-2025-089 por 1.350 €, vence el 30 de abril.",
            "La factura F-2025-089 en realidad es por 1.530 €.",
            UPDATE,
        ),
        # Swedish kin forms no stemmer meets, and an adverb between "jobbar" and "på".
        (
            "Brodern till Erik heter Johan och jobbar på Volvo.",
            "Eriks bror Johan jobbar numera på Scania.",
            UPDATE,
        ),
        # "kl. 08.15" is a time, and "moved to 9:45" no place.
        (
            "Tandläkartiden är på tisdag kl. 08.15.",
            "Tandläkartiden är flyttad till torsdag kl. 13.00.",
            UPDATE,
        ),
        # A person named by a tie and a name is the one the name names.
        ("My brother Erik lives in Stockholm", "Erik moved to Kiruna", UPDATE),
        ("Mi amiga Lucía vive en Madrid", "En realidad, Lucía vive en Sevilla", UPDATE),
        ("Ana lives in Braga.", "Sam's sister Ana moved to Faro.", UPDATE),
        ("Erik lives in Stockholm", "Erik's brother lives in Kiruna", DISTINCT),
        ("My sister Lena lives in Malmö", "My sister lives in Malmö", SAME),
        # ... and so is one named after a plain word for what it is.
        ("The dog Poppy is a golden retriever", "Poppy is a golden retriever", SAME),
        ("The invoice INV-5120 is overdue.", "INV-5120 is overdue.", SAME),
        ("The dog Poppy is a golden retriever", "The cat Miso is a golden retriever", DISTINCT),
        ("Sam's sister Ana is a doctor", "Sam is a doctor", DISTINCT),
        ("My sister Lena lives in Malmö", "My brother lives in Lund", DISTINCT),
        # "... and I live in": the speaker's own place, whatever the sentence began with.
        ("My name is Anna Berg and I live in Gothenburg", "Actually, I moved to Borås", UPDATE),
        ("My name is Anna Berg and I live in Gothenburg", "I live in Gothenburg", SAME),
        # Announced as changed ("neu", "uppskjutet"), with another word for it.
        (
            "Das Ticket OPS-9 ist Karin zugewiesen",
            "Das Ticket OPS-9 wurde Mehmet neu zugewiesen",
            UPDATE,
        ),
        (
            "Styrelsemötet är den 2027-03-12 kl 18:00",
            "Styrelsemötet är uppskjutet till 2027-03-19",
            UPDATE,
        ),
        # A new number after the same word, announced, is that thing's new number; unannounced,
        # another port beside the first.
        ("Server beta runs Postgres 15 on port 5433", "Server beta now uses port 5434", UPDATE),
        ("Server beta runs Postgres 15 on port 5433", "Server beta uses port 5434", DISTINCT),
        # One of many named by a word after the same word: another one, even announced.
        (
            "The Postgres 16 upgrade of server beta is planned for 2026-12-27.",
            "Correction: the Postgres 16 upgrade of server alpha was postponed to 2027-01-03.",
            DISTINCT,
        ),
        # A change said again in other words of change is the newer value.
        (
            "The dentist appointment was postponed to 2027-03-24 at 09:30.",
            "The dentist appointment was moved to 2027-03-31 at 08:00",
            UPDATE,
        ),
        # Announced, a third said by both is enough ("I now drive ..."); a passing
        # constraint "until 14 April" is no lasting change.
        ("I drive a blue Volvo V60", "I now drive a white Polestar 2", UPDATE),
        (
            "User takes the 07:40 train to work.",
            "Trains on the user's line are replaced by buses until 14 April.",
            DISTINCT,
        ),
        # A change of a part is not a change of the whole: the Volvo is still driven.
        ("User drives a Volvo.", "User replaced the tyres of the Volvo.", DISTINCT),
        ("User drives a Volvo XC60.", "User replaced the tyres on the Volvo last week.", DISTINCT),
        (
            "Der Nutzer ist Teamleiter im Vertrieb.",
            "Der Nutzer ist jetzt Abteilungsleiter im Vertrieb.",
            UPDATE,
        ),
        # An attribute named in two words, or by its own word for it.
        ("Zona horaria: CET", "Zona horaria: UTC-3", UPDATE),
        ("Zona horaria del usuario: CET", "El usuario vive en Sevilla.", DISTINCT),
        ("El usuario vive en Sevilla.", "La casa del usuario está en Sevilla.", SAME),
        ("Phone: iPhone 13 mini", "Phone: Google Pixel 8", UPDATE),
        ("Lisa's phone is a Samsung Galaxy S21.", "Lisa's work phone is a Pixel 8.", DISTINCT),
        # One weight at a time, whoever weighs what.
        ("User weighs 82 kg.", "User is down to 77 kg.", UPDATE),
        ("User's sister weighs 60 kg.", "User is down to 77 kg.", DISTINCT),
        # A word that only describes the subject more does not make it another one.
        ("Daily standup is at 9:15.", "Standup moved to 9:45 starting Monday.", UPDATE),
        ("Name: Maya", "Correction: Maya lives in Bergen.", DISTINCT),
    ],
)
def test_one_attribute_and_one_owner_however_they_are_said(
    old: str, new: str, relation: Relation
) -> None:
    assert judge(old, new).relation is relation


# What was won on each set of blind pairs (round 7's fresh half, round 9's probe, round
# 10's two probes, and one each round since), as floors: right pairs per kind.
_FLOORS = {
    "fresh": {"correction": 85, "complementary": 109, "restatement": 29, "enrichment": 29},
    "probe": {"correction": 27, "complementary": 35, "restatement": 11, "enrichment": 20},
    "probe2": {"correction": 46, "complementary": 36, "restatement": 7, "enrichment": 16},
    "probe3": {"correction": 32, "complementary": 32, "restatement": 9, "enrichment": 12},
    "probe4": {"correction": 34, "complementary": 30, "restatement": 10, "enrichment": 14},
    "probe5": {"correction": 36, "complementary": 30, "restatement": 11, "enrichment": 14},
    "probe6": {"correction": 30, "complementary": 35, "restatement": 18, "enrichment": 17},
    "probe7": {"correction": 27, "complementary": 35, "restatement": 21, "enrichment": 18},
    "probe8": {"correction": 27, "complementary": 35, "restatement": 21, "enrichment": 18},
    "probe9": {"correction": 26, "complementary": 35, "restatement": 9, "enrichment": 16},
}


@pytest.mark.parametrize("half", sorted(_FLOORS))
def test_the_blind_pairs_lose_nothing_silently(half: str) -> None:
    """Through remember: no detail is lost without a receipt, no unrelated fact is held,
    and the figures tuned on them do not fall back."""
    from benchmarks.bench_judgement import load, score

    figures = score(load(half))
    assert figures["silent_losses"] == 0 and figures["unrelated_holds"] == 0
    right = {kind: r for kind, (r, _total) in figures["accuracy"].items()}
    assert all(right[kind] >= floor for kind, floor in _FLOORS[half].items()), figures


def test_a_change_of_one_topic_changes_no_fact_of_another() -> None:
    # "I moved to Bergen" had replaced "I have a cat called Miso", "Sam stopped playing
    # chess" "Sam lives in Lisbon": 209 of 448 such pairs changed an unrelated fact. Left:
    # a switch to a phone read as giving up the car one drives, "now works at Klarna" as
    # more about being vegetarian (unsure: both kept), "ya no es vegana" as no longer
    # allergic.
    from benchmarks.bench_judgement import across_topics

    changed, total = across_topics()
    assert total == 448 and changed <= 4


def test_a_switch_gives_up_only_what_is_used_or_the_device_and_of_a_list_is_unsure() -> None:
    verdict = judge("I use VS Code and PyCharm.", "Switched to Neovim.")
    assert verdict.relation is UPDATE and not verdict.sure
    # Nothing used or a device: a pet, a rent, a home are not what a switch gives up.
    for old in (
        "I have a cat named Miso.",
        "My rent is $1,600 per month for the flat on Elm Street.",
        "I live in Lisbon.",
    ):
        assert judge(old, "Switched to Vodafone for mobile.").relation is DISTINCT


def test_a_restatement_the_words_leave_open_is_the_models_to_confirm() -> None:
    """Said another way is "the same" only as far as the words go: a model, if any,
    confirms, and the receipt says it was already known."""
    verdict = judge("Soy alérgico a los frutos secos.", "Los frutos secos me dan alergia.")
    assert verdict.relation is SAME and not verdict.sure
    # Words that only share a beginning with a name are not derived from it.
    assert judge("I live in Stockholm.", "I live on Stockholmsvägen.").relation is not SAME
