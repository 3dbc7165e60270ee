/**
 * Static vocabulary of the demo data: names, menus, revenue centers and nearby competitors. Only data
 * lives here; the choices between them are made in the generators with the seeded random source.
 */

/** Given names, a mix as a US city's guest list would show. */
// prettier-ignore
export const FIRST_NAMES = [
  'James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth',
  'William', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen',
  'Christopher', 'Lisa', 'Daniel', 'Nancy', 'Matthew', 'Betty', 'Anthony', 'Sandra', 'Mark', 'Margaret',
  'Steven', 'Ashley', 'Paul', 'Kimberly', 'Andrew', 'Emily', 'Joshua', 'Donna', 'Kevin', 'Michelle',
  'Brian', 'Carol', 'George', 'Amanda', 'Timothy', 'Melissa', 'Ryan', 'Deborah', 'Jacob', 'Stephanie',
  'Nicholas', 'Rebecca', 'Eric', 'Laura', 'Jonathan', 'Helen', 'Justin', 'Amy', 'Brandon', 'Anna',
  'Samuel', 'Olivia', 'Benjamin', 'Emma', 'Gregory', 'Sophia', 'Alexander', 'Isabella', 'Patrick', 'Mia',
  'Tyler', 'Chloe', 'Aaron', 'Grace', 'Jose', 'Maria', 'Luis', 'Sofia', 'Carlos', 'Camila', 'Juan',
  'Valentina', 'Miguel', 'Lucia', 'Wei', 'Mei', 'Jin', 'Yuki', 'Hiroshi', 'Min-jun', 'Ji-woo', 'Arjun',
  'Priya', 'Rohan', 'Ananya', 'Omar', 'Layla', 'Ahmed', 'Fatima', 'Kwame', 'Amara', 'Tariq', 'Nadia',
  'Liam', 'Noah', 'Ethan', 'Mason', 'Lucas', 'Ava', 'Harper', 'Evelyn', 'Abigail', 'Ella', 'Zoe',
  'Hannah', 'Nora', 'Riley', 'Quinn', 'Rowan', 'Avery', 'Jordan', 'Morgan', 'Casey', 'Dakota',
] as const;

/** Family names, including a few with an apostrophe or hyphen so CSV quoting is exercised. */
// prettier-ignore
export const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez',
  'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin',
  'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson',
  'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores', 'Green',
  'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts', 'Chen',
  'Wang', 'Kim', 'Park', 'Patel', 'Shah', 'Tanaka', 'Sato', 'Yamamoto', 'Singh', 'Kumar', 'Ali',
  'Hassan', 'Okafor', 'Mensah', 'Larsen', 'Johansson', 'Schmidt', 'Muller', 'Rossi', 'Russo', 'Novak',
  'Kowalski', 'Murphy', 'Kelly', "O'Brien", "O'Connor", 'Sullivan', 'McCarthy', 'Fitzgerald', 'Brooks',
  'Bennett', 'Gray', 'Hughes', 'Price', 'Sanders', 'Myers', 'Long', 'Ross', 'Foster', 'Powell', 'Jenkins',
  'Perry', 'Russell', 'Griffin', 'Hayes', 'Ford', 'Ward', 'Cox', 'Reyes', 'Morales', 'Ortiz', 'Castillo',
  'Vargas', 'Mendoza', 'Alvarez', 'Chavez', 'Dubois', 'Moreau', 'Nakamura', 'Tran', 'Pham', 'Le',
  'Cohen', 'Levy', 'Friedman', 'Santos', 'Silva', 'Costa', 'Ibrahim', 'Abbott', 'Holloway', 'Whitaker',
  'Delgado', 'Ramos', 'Soto', 'Fischer', 'Weber', 'Hoffman', 'Lindqvist', 'Stone', 'Fox', 'Dunn-Harper',
] as const;

/** What a menu category is on a check, which decides when and how often its items are ordered. */
export type MenuRole = 'starter' | 'main' | 'side' | 'dessert' | 'cocktail' | 'wine' | 'soft';

/** Breakfast and lunch mains of a diner are ordered at different times of day. */
export type Daypart = 'morning' | 'midday';

/** One menu category with its items; prices are integer cents. */
export interface MenuCategorySpec {
  name: string;
  role: MenuRole;
  daypart?: Daypart;
  items: ReadonlyArray<{ name: string; priceCents: number }>;
}

/** A Pacific Northwest seafood-and-wine restaurant group: 65 items in 9 categories. */
export const HARBOR_MENU: readonly MenuCategorySpec[] = [
  {
    name: 'Starters',
    role: 'starter',
    items: [
      { name: 'Dungeness Crab Cakes', priceCents: 1895 },
      { name: 'Fried Calamari', priceCents: 1495 },
      { name: 'Oysters on the Half Shell (6)', priceCents: 1800 },
      { name: 'Steamed Manila Clams', priceCents: 1650 },
      { name: 'Charcuterie Board', priceCents: 2200 },
      { name: 'Crispy Brussels Sprouts', priceCents: 1200 },
      { name: 'Hummus & Grilled Flatbread', priceCents: 1100 },
      { name: 'Smoked Salmon Dip', priceCents: 1350 },
    ],
  },
  {
    name: 'Soups & Salads',
    role: 'starter',
    items: [
      { name: 'Clam Chowder', priceCents: 950 },
      { name: 'French Onion Soup', priceCents: 1000 },
      { name: 'Caesar Salad', priceCents: 1300 },
      { name: 'Little Gem Salad', priceCents: 1250 },
      { name: 'Roasted Beet Salad', priceCents: 1350 },
      { name: 'Wedge Salad', priceCents: 1300 },
      { name: 'Seasonal Greens', priceCents: 1100 },
    ],
  },
  {
    name: 'Sandwiches & Burgers',
    role: 'main',
    items: [
      { name: 'Vine Burger', priceCents: 1895 },
      { name: 'Fried Chicken Sandwich', priceCents: 1750 },
      { name: 'Salmon BLT', priceCents: 1900 },
      { name: 'French Dip', priceCents: 1850 },
      { name: 'Veggie Burger', priceCents: 1650 },
      { name: 'Lobster Roll', priceCents: 2600 },
      { name: 'Grilled Cheese & Tomato Soup', priceCents: 1450 },
    ],
  },
  {
    name: 'Mains',
    role: 'main',
    items: [
      { name: 'Pan-Seared King Salmon', priceCents: 3200 },
      { name: 'Halibut Fish & Chips', priceCents: 2600 },
      { name: 'Grilled Ribeye', priceCents: 4800 },
      { name: 'Roast Half Chicken', priceCents: 2800 },
      { name: 'Braised Short Rib', priceCents: 3600 },
      { name: 'Wild Mushroom Risotto', priceCents: 2400 },
      { name: 'Seafood Linguine', priceCents: 3100 },
      { name: 'Double-Cut Pork Chop', priceCents: 3000 },
      { name: 'Cioppino', priceCents: 3800 },
      { name: 'Seared Scallops', priceCents: 3900 },
    ],
  },
  {
    name: 'Sides',
    role: 'side',
    items: [
      { name: 'Truffle Fries', priceCents: 900 },
      { name: 'Garlic Mashed Potatoes', priceCents: 700 },
      { name: 'Grilled Asparagus', priceCents: 900 },
      { name: 'Mac & Cheese', priceCents: 950 },
      { name: 'Sautéed Greens', priceCents: 800 },
      { name: 'Sourdough & Butter', priceCents: 600 },
      { name: 'Side Salad', priceCents: 700 },
    ],
  },
  {
    name: 'Desserts',
    role: 'dessert',
    items: [
      { name: 'Marionberry Cobbler', priceCents: 1100 },
      { name: 'Chocolate Torte', priceCents: 1200 },
      { name: 'Crème Brûlée', priceCents: 1100 },
      { name: 'Seasonal Sorbet', priceCents: 800 },
      { name: 'Hazelnut Cheesecake', priceCents: 1200 },
      { name: 'Affogato', priceCents: 900 },
    ],
  },
  {
    name: 'Cocktails',
    role: 'cocktail',
    items: [
      { name: 'Harbor Old Fashioned', priceCents: 1500 },
      { name: 'Marionberry Margarita', priceCents: 1400 },
      { name: 'Espresso Martini', priceCents: 1500 },
      { name: 'Negroni', priceCents: 1400 },
      { name: 'Gin & Tonic', priceCents: 1200 },
      { name: 'Aperol Spritz', priceCents: 1300 },
      { name: 'Moscow Mule', priceCents: 1300 },
      { name: 'Zero-Proof Spritz', priceCents: 900 },
    ],
  },
  {
    name: 'Wine & Beer',
    role: 'wine',
    items: [
      { name: 'Willamette Pinot Noir, glass', priceCents: 1600 },
      { name: 'Pinot Gris, glass', priceCents: 1300 },
      { name: 'Chardonnay, glass', priceCents: 1400 },
      { name: 'Rosé, glass', priceCents: 1200 },
      { name: 'Sparkling Brut, glass', priceCents: 1300 },
      { name: 'Local IPA', priceCents: 800 },
      { name: 'Pilsner', priceCents: 700 },
      { name: 'Dry Cider', priceCents: 800 },
    ],
  },
  {
    name: 'Coffee & Soft Drinks',
    role: 'soft',
    items: [
      { name: 'Drip Coffee', priceCents: 400 },
      { name: 'Iced Tea', priceCents: 400 },
      { name: 'Sparkling Water', priceCents: 500 },
      { name: 'Fresh Lemonade', priceCents: 500 },
    ],
  },
];

/** A neighbourhood diner: breakfast and lunch, 29 items in 5 categories. */
export const DINER_MENU: readonly MenuCategorySpec[] = [
  {
    name: 'Breakfast',
    role: 'main',
    daypart: 'morning',
    items: [
      { name: 'Two-Egg Breakfast', priceCents: 1150 },
      { name: 'Buttermilk Pancakes', priceCents: 1050 },
      { name: 'Denver Omelet', priceCents: 1395 },
      { name: 'Biscuits & Gravy', priceCents: 1195 },
      { name: 'Chicken Fried Steak & Eggs', priceCents: 1695 },
      { name: 'Breakfast Burrito', priceCents: 1295 },
      { name: 'Cinnamon French Toast', priceCents: 1095 },
      { name: 'Huevos Rancheros', priceCents: 1350 },
    ],
  },
  {
    name: 'Lunch',
    role: 'main',
    daypart: 'midday',
    items: [
      { name: 'Kettle Cheeseburger', priceCents: 1450 },
      { name: 'Patty Melt', priceCents: 1395 },
      { name: 'Turkey Club', priceCents: 1350 },
      { name: 'Green Chile Smothered Burrito', priceCents: 1450 },
      { name: 'Meatloaf Plate', priceCents: 1595 },
      { name: 'Chicken Pot Pie', priceCents: 1495 },
      { name: 'Tuna Melt', priceCents: 1250 },
    ],
  },
  {
    name: 'Sides',
    role: 'side',
    items: [
      { name: 'Hash Browns', priceCents: 450 },
      { name: 'Thick-Cut Bacon', priceCents: 550 },
      { name: 'Sourdough Toast', priceCents: 300 },
      { name: 'Fruit Cup', priceCents: 500 },
      { name: 'Side of Green Chile', priceCents: 300 },
    ],
  },
  {
    name: 'Pies',
    role: 'dessert',
    items: [
      { name: 'Apple Pie', priceCents: 650 },
      { name: 'Cherry Pie', priceCents: 650 },
      { name: 'Banana Cream Pie', priceCents: 700 },
      { name: 'Pie à la Mode', priceCents: 850 },
    ],
  },
  {
    name: 'Drinks',
    role: 'soft',
    items: [
      { name: 'Bottomless Coffee', priceCents: 350 },
      { name: 'Fresh Orange Juice', priceCents: 500 },
      { name: 'Chocolate Milkshake', priceCents: 750 },
      { name: 'Hot Chocolate', priceCents: 400 },
      { name: 'Iced Tea', priceCents: 350 },
    ],
  },
];

/** The revenue centers a location may have; every location has a dining room and takeout. */
export const REVENUE_CENTERS = ['Dining Room', 'Bar', 'Patio', 'Takeout'] as const;

/** One revenue center name. */
export type RevenueCenterName = (typeof REVENUE_CENTERS)[number];

/** Nearby businesses for competitor sets; names are invented. */
export const COMPETITORS: ReadonlyArray<{ name: string; category: string; priceLevel: number }> = [
  { name: 'Blue Heron Bistro', category: 'French', priceLevel: 3 },
  { name: 'Rose City Taqueria', category: 'Mexican', priceLevel: 1 },
  { name: 'Lantern Noodle Bar', category: 'Asian', priceLevel: 2 },
  { name: 'Tidewater Fish House', category: 'Seafood', priceLevel: 3 },
  { name: 'Pine & Pearl', category: 'American', priceLevel: 3 },
  { name: 'Ironside Burger Co.', category: 'Burgers', priceLevel: 2 },
  { name: 'Salt, Fat & Smoke', category: 'Barbecue', priceLevel: 2 },
  { name: 'Little Fig Trattoria', category: 'Italian', priceLevel: 3 },
  { name: 'Morning Glory Cafe', category: 'Breakfast & Brunch', priceLevel: 2 },
  { name: 'Golden Lotus', category: 'Chinese', priceLevel: 2 },
  { name: 'Sakura Sushi House', category: 'Japanese', priceLevel: 3 },
  { name: 'The Copper Still', category: 'Bar', priceLevel: 2 },
  { name: 'Basil & Bloom Thai', category: 'Thai', priceLevel: 2 },
  { name: 'Ember Wood-Fired Pizza', category: 'Pizza', priceLevel: 2 },
  { name: 'Stoneground Bakery', category: 'Bakery', priceLevel: 1 },
  { name: 'Alder & Oak Steakhouse', category: 'Steakhouse', priceLevel: 4 },
  { name: 'Cascade Public House', category: 'Pub', priceLevel: 2 },
  { name: 'Verde Cocina', category: 'Mexican', priceLevel: 2 },
  { name: 'Saffron Table', category: 'Indian', priceLevel: 2 },
  { name: 'Olive & Vine Mezze', category: 'Mediterranean', priceLevel: 2 },
  { name: 'Night Owl Diner', category: 'Diner', priceLevel: 1 },
  { name: 'Bramble Wine Bar', category: 'Wine Bar', priceLevel: 3 },
  { name: 'Seoul Kitchen', category: 'Korean', priceLevel: 2 },
  { name: 'Pho Saigon Corner', category: 'Vietnamese', priceLevel: 1 },
  { name: 'The Gilded Spoon', category: 'New American', priceLevel: 4 },
  { name: 'Harvest Moon Brewing', category: 'Brewpub', priceLevel: 2 },
  { name: 'Fern & Feather', category: 'Vegetarian', priceLevel: 2 },
  { name: 'Cedar Plank Grill', category: 'American', priceLevel: 3 },
  { name: 'Sunny Side Up', category: 'Breakfast & Brunch', priceLevel: 1 },
  { name: 'Marrow & Bone', category: 'Gastropub', priceLevel: 3 },
  { name: 'Nonna Lucia', category: 'Italian', priceLevel: 2 },
  { name: 'Dockside Oyster Bar', category: 'Seafood', priceLevel: 3 },
  { name: 'Rolling Pin Pie Shop', category: 'Bakery', priceLevel: 1 },
  { name: 'Smokestack BBQ', category: 'Barbecue', priceLevel: 2 },
  { name: 'Green Room Tavern', category: 'Bar', priceLevel: 2 },
  { name: 'Casa Azul', category: 'Mexican', priceLevel: 2 },
  { name: 'Red Lantern Dim Sum', category: 'Chinese', priceLevel: 2 },
  { name: 'Bluebird Coffee & Kitchen', category: 'Cafe', priceLevel: 1 },
  { name: 'Meridian Supper Club', category: 'New American', priceLevel: 4 },
  { name: 'Wildflower Creperie', category: 'French', priceLevel: 2 },
];

/** Mail domains of invented subscriber addresses; `.example` and `example.*` are reserved, never delivered. */
export const EMAIL_DOMAINS: ReadonlyArray<{ domain: string; weight: number }> = [
  { domain: 'example.com', weight: 40 },
  { domain: 'example.net', weight: 20 },
  { domain: 'example.org', weight: 15 },
  { domain: 'mail.example', weight: 15 },
  { domain: 'inbox.example', weight: 10 },
];
