// Word lists for plausible generated records: names, places with real postal
// codes and dialling codes, company name parts, short texts. German and English.

export type Language = 'de' | 'en';
export type CountryCode = 'DE' | 'AT' | 'CH' | 'GB' | 'US';

export const GERMAN_FIRST_NAMES: readonly string[] = [
  'Anna', 'Andreas', 'Annika', 'Bernd', 'Birgit', 'Björn', 'Carsten', 'Claudia', 'Christian', 'Dieter',
  'Dörte', 'Elke', 'Emma', 'Florian', 'Frank', 'Franziska', 'Gabriele', 'Günther', 'Hannah', 'Hans-Peter',
  'Heike', 'Helga', 'Ingrid', 'Jan', 'Jörg', 'Jürgen', 'Julia', 'Jonas', 'Karin', 'Katrin',
  'Klaus', 'Lara', 'Lea', 'Lena', 'Lukas', 'Maximilian', 'Marie', 'Markus', 'Martina', 'Matthias',
  'Michael', 'Monika', 'Nele', 'Niklas', 'Ole', 'Paul', 'Petra', 'Ralf', 'Renate', 'Sabine',
  'Sandra', 'Sebastian', 'Sophie', 'Sören', 'Stefan', 'Susanne', 'Thomas', 'Tobias', 'Uwe', 'Ulrike',
  'Ursula', 'Wolfgang', 'Yvonne', 'Anna-Lena', 'Hannes', 'Jörn', 'Käthe', 'Lotte', 'Mia', 'Felix',
];

export const GERMAN_LAST_NAMES: readonly string[] = [
  'Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann',
  'Schäfer', 'Koch', 'Bauer', 'Richter', 'Klein', 'Wolf', 'Schröder', 'Neumann', 'Schwarz', 'Zimmermann',
  'Braun', 'Krüger', 'Hofmann', 'Hartmann', 'Lange', 'Schmitt', 'Werner', 'Schmitz', 'Krause', 'Meier',
  'Lehmann', 'Schulze', 'Maier', 'Köhler', 'Herrmann', 'König', 'Walter', 'Huber', 'Kaiser', 'Fuchs',
  'Peters', 'Lang', 'Scholz', 'Möller', 'Weiß', 'Jung', 'Hahn', 'Schubert', 'Vogel', 'Friedrich',
  'Keller', 'Günther', 'Frank', 'Berger', 'Winkler', 'Roth', 'Beck', 'Lorenz', 'Baumann', 'Franke',
  'Albrecht', 'Schuster', 'Ludwig', 'Böhm', 'Winter', 'Kraus', 'Schumacher', 'Krämer', 'Vogt', 'Stein',
  'Jäger', 'Sommer', 'Groß', 'Seidel', 'Heinrich', 'Brandt', 'Haas', 'Schreiber', 'Graf', 'Dietrich',
  'Ziegler', 'Kühn', 'Pohl', 'Engel', 'Horn', 'Busch', 'Bergmann', 'Voigt', 'Sauer', 'Pfeiffer',
];

export const ENGLISH_FIRST_NAMES: readonly string[] = [
  'Oliver', 'Amelia', 'George', 'Isla', 'Harry', 'Ava', 'Jack', 'Emily', 'Charlie', 'Sophia',
  'Thomas', 'Grace', 'James', 'Lily', 'William', 'Freya', 'Henry', 'Chloe', 'Daniel', 'Ella',
  'Samuel', 'Charlotte', 'Joseph', 'Evie', 'Alexander', 'Poppy', 'Benjamin', 'Ruby', 'Edward', 'Alice',
  'Michael', 'Sarah', 'David', 'Laura', 'Robert', 'Jennifer', 'Matthew', 'Jessica', 'Andrew', 'Rachel',
  'Christopher', 'Hannah', 'Richard', 'Emma', 'Simon', 'Claire', 'Patrick', 'Fiona', 'Callum', 'Eilidh',
];

export const ENGLISH_LAST_NAMES: readonly string[] = [
  'Smith', 'Jones', 'Taylor', 'Brown', 'Williams', 'Wilson', 'Johnson', 'Davies', 'Robinson', 'Wright',
  'Thompson', 'Evans', 'Walker', 'White', 'Roberts', 'Green', 'Hall', 'Wood', 'Jackson', 'Clarke',
  'Patel', 'Khan', 'Lewis', 'James', 'Phillips', 'Mason', 'Mitchell', 'Rose', 'Davis', 'Rodriguez',
  'Cox', 'Alexander', 'Morgan', 'Moore', 'Harris', 'Martin', 'Cooper', 'Ward', 'Turner', 'Hughes',
  'Campbell', 'Stewart', 'MacDonald', 'Murray', 'Fraser', 'Baker', 'Carter', 'Edwards', 'Bennett', 'Fletcher',
];

export interface Place {
  readonly city: string;
  readonly country: CountryCode;
  /** real postal codes of the city */
  readonly zips: readonly string[];
  /** landline prefix in international form, e.g. "+49 30" */
  readonly dialCode: string;
}

export const PLACES: readonly Place[] = [
  { city: 'Berlin', country: 'DE', zips: ['10115', '10117', '10119', '10178', '10405', '10435', '10551', '10777', '12043', '13353'], dialCode: '+49 30' },
  { city: 'München', country: 'DE', zips: ['80331', '80333', '80335', '80469', '80539', '80796', '81369', '81667'], dialCode: '+49 89' },
  { city: 'Hamburg', country: 'DE', zips: ['20095', '20097', '20144', '20354', '22083', '22765'], dialCode: '+49 40' },
  { city: 'Köln', country: 'DE', zips: ['50667', '50668', '50672', '50674', '50733', '50823'], dialCode: '+49 221' },
  { city: 'Frankfurt am Main', country: 'DE', zips: ['60311', '60313', '60316', '60318', '60486', '60594'], dialCode: '+49 69' },
  { city: 'Stuttgart', country: 'DE', zips: ['70173', '70174', '70176', '70178', '70190'], dialCode: '+49 711' },
  { city: 'Leipzig', country: 'DE', zips: ['04109', '04103', '04105', '04177', '04275'], dialCode: '+49 341' },
  { city: 'Düsseldorf', country: 'DE', zips: ['40213', '40210', '40211', '40212', '40474'], dialCode: '+49 211' },
  { city: 'Dresden', country: 'DE', zips: ['01067', '01069', '01097', '01099', '01307'], dialCode: '+49 351' },
  { city: 'Hannover', country: 'DE', zips: ['30159', '30161', '30163', '30169', '30175'], dialCode: '+49 511' },
  { city: 'Nürnberg', country: 'DE', zips: ['90402', '90403', '90429', '90459'], dialCode: '+49 911' },
  { city: 'Bremen', country: 'DE', zips: ['28195', '28203', '28209'], dialCode: '+49 421' },
  { city: 'Wien', country: 'AT', zips: ['1010', '1030', '1070', '1090'], dialCode: '+43 1' },
  { city: 'Graz', country: 'AT', zips: ['8010', '8020'], dialCode: '+43 316' },
  { city: 'Salzburg', country: 'AT', zips: ['5020'], dialCode: '+43 662' },
  { city: 'Zürich', country: 'CH', zips: ['8001', '8002', '8004', '8005'], dialCode: '+41 44' },
  { city: 'Bern', country: 'CH', zips: ['3011', '3012'], dialCode: '+41 31' },
  { city: 'Basel', country: 'CH', zips: ['4051', '4052'], dialCode: '+41 61' },
  { city: 'London', country: 'GB', zips: ['EC2A 4NE', 'SE1 9SG', 'N1 9GU', 'W1D 3QF', 'E1 6AN', 'SW11 4NJ'], dialCode: '+44 20' },
  { city: 'Manchester', country: 'GB', zips: ['M1 1AE', 'M2 5DB', 'M4 1HN', 'M15 4FN'], dialCode: '+44 161' },
  { city: 'Bristol', country: 'GB', zips: ['BS1 4DJ', 'BS1 5TR', 'BS8 1TH'], dialCode: '+44 117' },
  { city: 'Edinburgh', country: 'GB', zips: ['EH1 1YZ', 'EH2 2BY', 'EH3 9AA', 'EH8 9YL'], dialCode: '+44 131' },
  { city: 'New York', country: 'US', zips: ['10001', '10013', '10017'], dialCode: '+1 212' },
  { city: 'Boston', country: 'US', zips: ['02108', '02110', '02116'], dialCode: '+1 617' },
  { city: 'San Francisco', country: 'US', zips: ['94103', '94105', '94107'], dialCode: '+1 415' },
];

export const COUNTRY_LANGUAGE: Readonly<Record<CountryCode, Language>> = { DE: 'de', AT: 'de', CH: 'de', GB: 'en', US: 'en' };

/** Top-level domain of company websites per country. */

export const GERMAN_STREETS: readonly string[] = [
  'Lindenstraße', 'Hauptstraße', 'Bahnhofstraße', 'Gartenstraße', 'Schulstraße', 'Bergstraße', 'Birkenweg',
  'Kirchstraße', 'Goethestraße', 'Schillerstraße', 'Friedrichstraße', 'Mozartstraße', 'Am Markt', 'Rosenweg',
  'Ahornweg', 'Wiesenweg', 'Parkstraße', 'Kastanienallee', 'Königstraße', 'Beethovenstraße', 'Mühlenweg',
  'Feldstraße', 'Uhlandstraße', 'Lessingstraße', 'Heinestraße', 'Amselweg', 'Hafenstraße', 'Eichendorffstraße',
];

export const AUSTRIAN_STREETS: readonly string[] = [
  'Hauptstraße', 'Bahnhofstraße', 'Kirchengasse', 'Schulgasse', 'Mariahilfer Straße', 'Herrengasse', 'Lindengasse', 'Annenstraße',
];

// Swiss German spells ß as ss.
export const SWISS_STREETS: readonly string[] = [
  'Bahnhofstrasse', 'Seefeldstrasse', 'Marktgasse', 'Spitalgasse', 'Kramgasse', 'Freie Strasse', 'Limmatquai', 'Badenerstrasse',
];

export const ENGLISH_STREETS: readonly string[] = [
  'High Street', 'Station Road', 'Church Lane', 'Victoria Road', 'King Street', 'Queen Street', 'Park Road',
  'Mill Lane', 'Baker Street', 'George Street', 'Castle Street', 'Market Street', 'Union Street', 'York Road',
];

export const US_STREETS: readonly string[] = [
  'Market Street', 'Main Street', 'Broadway', 'Madison Avenue', 'Boylston Street', 'Mission Street', 'Beacon Street', 'Hudson Street',
];

export const STREETS_BY_COUNTRY: Readonly<Record<CountryCode, readonly string[]>> = {
  DE: GERMAN_STREETS, AT: AUSTRIAN_STREETS, CH: SWISS_STREETS, GB: ENGLISH_STREETS, US: US_STREETS,
};

/** Made-up brand words for company names. */
export const GERMAN_BRAND_WORDS: readonly string[] = [
  'Nordlicht', 'Alpenblick', 'Sonnenfeld', 'Elbwerk', 'Rheintal', 'Weitblick', 'Blauwal', 'Lichtblick',
  'Bergquelle', 'Isartal', 'Spreewerk', 'Hanse', 'Waldhof', 'Silberpfeil', 'Morgenrot', 'Feldberg',
];

export const ENGLISH_BRAND_WORDS: readonly string[] = [
  'Brightwater', 'Redbrick', 'Kingsbridge', 'Oakfield', 'Silverline', 'Northgate', 'Bluestone', 'Highland',
  'Thistle', 'Greenleaf', 'Harbourside', 'Ironbridge', 'Clearview', 'Riverside',
];

/** Industry words used in company names, by language and industry. */
export const INDUSTRY_WORDS: Readonly<Record<Language, Readonly<Record<string, readonly string[]>>>> = {
  de: {
    software: ['Software', 'Digital', 'IT-Systeme', 'Informatik'],
    manufacturing: ['Maschinenbau', 'Metallbau', 'Werkzeugbau', 'Feinmechanik'],
    retail: ['Handel', 'Warenhaus', 'Versand'],
    finance: ['Finanzberatung', 'Vermögensverwaltung', 'Capital'],
    health: ['Medizintechnik', 'Pharma', 'Gesundheit'],
    logistics: ['Logistik', 'Spedition', 'Transport'],
    energy: ['Energie', 'Solar', 'Windkraft'],
    media: ['Medien', 'Verlag', 'Film'],
  },
  en: {
    software: ['Software', 'Analytics', 'Digital', 'Cloud Systems'],
    manufacturing: ['Engineering', 'Manufacturing', 'Tooling'],
    retail: ['Retail', 'Trading', 'Stores'],
    finance: ['Capital', 'Financial Services', 'Partners'],
    health: ['Health', 'Medical', 'Biotech'],
    logistics: ['Logistics', 'Freight', 'Shipping'],
    energy: ['Energy', 'Renewables', 'Power'],
    media: ['Media', 'Studios', 'Publishing'],
  },
};

export const NOTES: Readonly<Record<Language, readonly string[]>> = {
  de: [
    'Bevorzugt Kontakt per E-Mail.',
    'Interessiert an der Cloud-Lösung, Rückruf im nächsten Quartal.',
    'Hat auf der Messe in Hannover nach einer Demo gefragt.',
    'Entscheidet zusammen mit der Geschäftsführung.',
    'Telefonisch am besten vormittags erreichbar.',
    'Wünscht ein Angebot mit drei Jahren Laufzeit.',
    'Urlaub bis Ende des Monats, danach nachfassen.',
    'Sehr zufrieden mit dem Support, mögliche Referenz.',
  ],
  en: [
    'Prefers to be contacted by email.',
    'Interested in the cloud offering, follow up next quarter.',
    'Met at the trade fair in London, asked for a demo.',
    'Decides together with the board.',
    'Best reached by phone in the morning.',
    'Asked for a quote with a three-year term.',
    'On leave until the end of the month, follow up afterwards.',
    'Very happy with support, possible reference customer.',
  ],
};

/** Words for generic titles and labels when a field name says nothing more specific. */
export const TITLE_ADJECTIVES: readonly string[] = [
  'Silent', 'Golden', 'Hidden', 'Northern', 'Last', 'Lost', 'Bright', 'Winter', 'Broken', 'Distant', 'Quiet', 'Secret',
];

export const TITLE_NOUNS: readonly string[] = [
  'River', 'Garden', 'Harbour', 'Forest', 'Summer', 'Letter', 'Island', 'Mountain', 'Voyage', 'Promise', 'Lighthouse', 'Orchard',
];

export const PROJECT_TITLES: Readonly<Record<Language, readonly string[]>> = {
  de: ['Lizenzverlängerung', 'Wartungsvertrag', 'Rahmenvertrag', 'Pilotprojekt', 'Beratungspaket', 'Schulung', 'Einführung'],
  en: ['Licence renewal', 'Support contract', 'Framework agreement', 'Pilot project', 'Consulting package', 'Training', 'Roll-out'],
};

export const LOREM_SENTENCES: readonly string[] = [
  'Details follow after the next meeting.',
  'Checked and confirmed by the team.',
  'Needs a review before the end of the month.',
  'Originally created during the spring planning.',
  'Linked to the annual report.',
  'Open questions are tracked separately.',
];

export const EXAMPLE_DOMAINS: readonly string[] = ['example.com', 'example.org', 'example.net'];
